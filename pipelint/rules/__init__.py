"""One module per rule (or per tight family), named by code and name."""
