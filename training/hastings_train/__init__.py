"""Training of the Hastings move predictor (ChessNet) on `hastings predictor dataset` output."""
