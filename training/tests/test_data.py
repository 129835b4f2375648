"""Dataset reading, padding, planes and the python-chess encoder used for fixtures."""

from __future__ import annotations

from pathlib import Path

import chess
import numpy as np
import pytest
import torch

from hastings_train import data
from hastings_train.data import (load_split, moving_piece, pad_legal, played_index,
                                 promotion_log_prior, unpack_planes)
from make_fixture import encode_board, encode_move, read_games

from conftest import PGN


def board_after(*sans: str) -> chess.Board:
    """The board after the moves in SAN from the start."""
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return board


def bits(*squares: int) -> int:
    """A bitboard of the squares."""
    return sum(1 << s for s in squares)


def test_encoder_mirrors_for_black() -> None:
    planes = encode_board(board_after("e4"))
    assert planes[0] == 0xFF00  # Black's pawns, mirrored to rank 2
    assert planes[6] == 0x00FF_0000_0000_0000 & ~bits(chess.E7) | bits(chess.E5)
    assert planes[5] == bits(chess.E1) and planes[11] == bits(chess.E8)
    assert planes[12] == 0  # e3 is the ep square, but no capture is possible
    assert planes[13] == bits(chess.A1, chess.H1, chess.A8, chess.H8)
    assert encode_move(chess.Move.from_uci("e7e5"), chess.BLACK) == chess.E2 | chess.E4 << 6
    assert encode_move(chess.Move.from_uci("e8g8"), chess.BLACK) == chess.E1 | chess.G1 << 6
    assert encode_move(chess.Move.from_uci("b2b1n"), chess.BLACK) == (
        chess.B7 | chess.B8 << 6 | 1 << 12)


def test_encoder_en_passant_only_when_legal() -> None:
    assert encode_board(board_after("e4", "a6", "e5", "d5"))[12] == bits(chess.D6)
    assert encode_board(board_after("a3", "d5", "a4", "d4", "e4"))[12] == bits(chess.E6)
    assert encode_board(board_after("e4", "a6", "e5", "a5", "d4"))[12] == 0


def test_encoder_castling_rooks() -> None:
    board = board_after("h4", "a5", "Rh3", "Ra6")  # both h1 and a8 rooks moved
    assert encode_board(board)[13] == bits(chess.A1, chess.H8)
    board.push_san("Rg3")  # Black to move: its e8-a8 rights gone, h8 left
    assert encode_board(board)[13] == bits(chess.H1, chess.A8)


def test_unpack_planes_matches_dataset_md_recipe(dataset: Path) -> None:
    split = load_split(dataset / "train")
    boards = np.array(split.boards[:50])
    recipe = np.unpackbits(boards.view(np.uint8), bitorder="little").reshape(len(boards), 14, 8, 8)
    planes = unpack_planes(torch.from_numpy(boards.view(np.int64)))
    assert torch.equal(planes, torch.from_numpy(recipe.astype(np.float32)))


@pytest.mark.parametrize("chunk", [1 << 18, 7])
def test_pad_legal_and_played_index(dataset: Path, chunk: int,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(data, "_CHUNK", chunk)
    split = load_split(dataset / "train")
    padded = pad_legal(split.legal, split.offsets)
    index = played_index(padded, split.moves)
    offsets = split.offsets.astype(np.int64)
    assert padded.dtype == np.int16
    assert padded.shape == (len(split), int(np.diff(offsets).max()))
    for i in range(0, len(split), 37):
        legal = split.legal[offsets[i]:offsets[i + 1]]
        assert padded[i, :len(legal)].tolist() == legal.tolist()
        assert (padded[i, len(legal):] == -1).all()
        assert legal[index[i]] == split.moves[i]


def test_played_index_rejects_an_illegal_move() -> None:
    padded = np.array([[1, 2, -1], [3, 4, 5]], dtype=np.int16)
    with pytest.raises(ValueError, match="position 1"):
        played_index(padded, np.array([2, 6], dtype=np.uint16))


def test_moving_piece_matches_python_chess() -> None:
    game = next(read_games([PGN], min_ply=0))
    boards = np.array([row.board for row in game.rows], dtype=np.uint64)
    boards = torch.from_numpy(boards.view(np.int64))
    moves = torch.tensor([row.move for row in game.rows])
    pieces = moving_piece(boards, moves).tolist()
    for row, piece in zip(game.rows, pieces):
        board = chess.Board(row.fen)
        from_square = (row.move & 63) ^ (0 if board.turn == chess.WHITE else 56)
        assert board.piece_type_at(from_square) == piece + 1


def test_promotion_prior_is_log_normalised() -> None:
    moves = np.array([4 << 12, 4 << 12 | 9, 4 << 12, 1 << 12, 12 | 28 << 6], dtype=np.uint16)
    prior = promotion_log_prior(moves)
    assert prior[0] == 0
    assert torch.allclose(prior[1:].exp(), torch.tensor([2, 1, 1, 4]) / 8)
    assert abs(float(torch.logsumexp(prior[1:], 0))) < 1e-6


def test_mirror_flips_boards_and_moves_of_positions_without_castling(dataset: Path) -> None:
    """A flipped position's played move is its legal move flipped, in the same column, and
    the flipped legal moves are those python-chess finds on the flipped board."""
    split = data.DeviceSplit(load_split(dataset / "train"), torch.device("cpu"))
    batch = split.batch(torch.arange(len(split)))
    planes = unpack_planes(batch.boards)
    torch.manual_seed(0)
    flipped_batch, flipped = data.mirror_files(batch, planes, 1.0)
    can_flip = batch.boards[:, 13] == 0
    assert can_flip.any() and (~can_flip).any()
    assert torch.equal(flipped[~can_flip], planes[~can_flip])
    assert torch.equal(flipped[can_flip], planes[can_flip].flip(-1))
    rows = torch.nonzero(can_flip).flatten()[:50]
    for i in rows.tolist():
        legal = flipped_batch.legal[i]
        assert int(legal[flipped_batch.target[i]]) == int(flipped_batch.moves[i])
        # Rebuild the flipped board from its planes and ask python-chess for its moves.
        board = chess.Board(None)
        for plane in range(12):
            for square in range(64):
                if flipped[i, plane].flatten()[square] > 0:
                    colour = chess.WHITE if plane < 6 else chess.BLACK
                    board.set_piece_at(square, chess.Piece(plane % 6 + 1, colour))
        board.turn = chess.WHITE
        ep = torch.nonzero(flipped[i, 12].flatten()).flatten()
        board.ep_square = int(ep[0]) if len(ep) else None
        expected = {encode_move(m, chess.WHITE) for m in board.legal_moves}
        got = {int(m) for m in legal if m >= 0}
        assert got == expected, i
