"""paratrace reference assistant (configurations B1-B4)."""
