"""The knowledge model around the store: data files, loading, validation and derived facts."""
