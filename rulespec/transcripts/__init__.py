"""Golden transcripts: read, replay, record, and `rulespec test`."""
