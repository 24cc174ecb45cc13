"""The file edge: JSON Lines records with their line numbers, and `railbird scan` over them."""
