//! One game's tokens played into a [`GameTree`]: variations in order, comments and
//! NAGs on the moves they follow (a comment at the start of a variation on the move it
//! precedes, one before the first move on the root), as python-chess's `GameBuilder`
//! places them. Several comments on one move are joined with a space.

use shakmaty::Chess;

use super::error::ReadIssue;
use super::scan::{Scanned, Token, scan};
use super::tree::{GameTree, NodeId};
use crate::book::error::MoveErrorKind;
use crate::book::movelist;
use crate::book::pgn::start_from_tags;
use crate::book::tags::GameTags;

/// A line being read: the node it has reached and the node it started from.
struct Frame {
    start: NodeId,
    node: NodeId,
    /// A comment before this line's first move.
    pending: Option<String>,
}

/// Reads one game's text (a chapter's span) into a tree; `chapter` (1-based) names it
/// in an issue.
///
/// # Errors
///
/// [`ReadIssue`] for text that is not UTF-8, a token that is not PGN, a bad start
/// position, an illegal or ambiguous move, unbalanced parentheses, moves after the
/// result.
pub(super) fn parse_chapter(chapter: usize, text: &[u8]) -> Result<GameTree, ReadIssue> {
    let issue = |ply: u32, san: &str, reason: String| ReadIssue {
        chapter,
        ply,
        san: san.to_owned(),
        reason,
    };
    if std::str::from_utf8(text).is_err() {
        return Err(issue(0, "", "the text is not UTF-8".to_owned()));
    }
    let Scanned {
        tags,
        tokens,
        error,
    } = scan(text);
    if let Some(e) = error {
        return Err(issue(
            0,
            &e.token,
            format!("{} at byte {} of the chapter", e.reason, e.offset),
        ));
    }
    let tags: GameTags = tags.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let start = match start_from_tags(tags.get("Variant"), tags.get("FEN")) {
        Ok(Some(pos)) => pos,
        Ok(None) => Chess::default(),
        Err(e) => return Err(issue(0, "", e.to_string())),
    };
    let mut tree = GameTree::new(tags, start);
    let mut frames = vec![Frame {
        start: GameTree::ROOT,
        node: GameTree::ROOT,
        pending: None,
    }];
    for token in tokens {
        let depth = frames.len();
        let Some(frame) = frames.last_mut() else {
            break;
        };
        let ply = tree.node(frame.node).map_or(0, |n| n.ply);
        if tree.result.is_some() && !matches!(token, Token::Comment(_)) {
            let what = match &token {
                Token::Move(_, t) => t.clone(),
                Token::Result(r) => r.clone(),
                other => format!("{other:?}"),
            };
            return Err(issue(
                ply,
                &what,
                "more movetext after the result".to_owned(),
            ));
        }
        match token {
            Token::Move(san, text) => {
                let Some(pos) = tree.node(frame.node).map(|n| n.pos.clone()) else {
                    break;
                };
                let (mv, standard) = movelist::to_move_and_san(&pos, san).map_err(|e| {
                    let reason = match e {
                        MoveErrorKind::Illegal => "illegal move",
                        MoveErrorKind::Ambiguous => "ambiguous move",
                    };
                    issue(ply + 1, &text, reason.to_owned())
                })?;
                let Some(id) = tree.push_node(frame.node, mv, standard) else {
                    return Err(issue(ply + 1, &text, "too many moves".to_owned()));
                };
                if let Some(parent) = tree.node_mut(frame.node) {
                    parent.children.push(id);
                }
                if let Some(node) = tree.node_mut(id) {
                    node.starting_comment = frame.pending.take();
                }
                frame.node = id;
            }
            Token::Nag(nag) => {
                if frame.node == frame.start {
                    return Err(issue(
                        ply,
                        &format!("${nag}"),
                        "a NAG before any move".to_owned(),
                    ));
                }
                if let Some(node) = tree.node_mut(frame.node) {
                    node.nags.push(nag);
                }
            }
            Token::Comment(text) => {
                let slot = if frame.node == frame.start && depth > 1 {
                    &mut frame.pending
                } else {
                    let Some(node) = tree.node_mut(frame.node) else {
                        break;
                    };
                    &mut node.comment
                };
                join(slot, text);
            }
            Token::Open => {
                if frame.node == frame.start {
                    return Err(issue(ply, "(", "a variation before any move".to_owned()));
                }
                let parent = tree.node(frame.node).and_then(|n| n.parent);
                let Some(parent) = parent else {
                    return Err(issue(ply, "(", "a variation before any move".to_owned()));
                };
                frames.push(Frame {
                    start: parent,
                    node: parent,
                    pending: None,
                });
            }
            Token::Close => {
                if depth == 1 {
                    return Err(issue(ply, ")", "a `)` without its `(`".to_owned()));
                }
                if frame.node == frame.start {
                    return Err(issue(ply, ")", "an empty variation".to_owned()));
                }
                frames.pop();
            }
            Token::Result(r) => {
                if depth > 1 {
                    return Err(issue(ply, &r, "the result inside a variation".to_owned()));
                }
                tree.result = Some(r);
            }
        }
    }
    if frames.len() > 1 {
        let ply = frames
            .last()
            .and_then(|f| tree.node(f.node))
            .map_or(0, |n| n.ply);
        return Err(issue(ply, "(", "a variation that is not closed".to_owned()));
    }
    Ok(tree)
}

fn join(slot: &mut Option<String>, text: String) {
    if text.is_empty() {
        return;
    }
    match slot {
        Some(old) => {
            old.push(' ');
            old.push_str(&text);
        }
        None => *slot = Some(text),
    }
}
