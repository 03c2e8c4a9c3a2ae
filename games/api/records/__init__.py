"""REST for game records (games/records/): a match's record, verifying one, a user's."""
