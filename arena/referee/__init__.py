"""Running matches: seats, statuses, strikes and the replay log."""
