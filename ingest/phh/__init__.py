"""The PHH edge: public PHH hand histories replayed in pokerkit into contract `hand` events."""
