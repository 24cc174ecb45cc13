"""Cash-table rules the house enforces automatically, read from table events alone."""
