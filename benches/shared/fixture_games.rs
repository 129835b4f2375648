//! The games of `tests/fixtures` files, each as its PGN text (cut before each
//! `[Event ` tag), for the benches that need real games in quantity.

/// The games of the fixture files `names`, in order, each as its text.
pub fn fixture_games(names: &[&str]) -> Vec<String> {
    let mut games = Vec::new();
    for name in names {
        let path = format!(
            "{}/tests/fixtures/{name}",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../..")
        );
        let Ok(text) = std::fs::read_to_string(&path) else {
            panic!("read {path}");
        };
        let mut game = String::new();
        for line in text.lines() {
            if line.starts_with("[Event ") && !game.trim().is_empty() {
                games.push(std::mem::take(&mut game));
            }
            game.push_str(line);
            game.push('\n');
        }
        if !game.trim().is_empty() {
            games.push(game);
        }
    }
    games
}
