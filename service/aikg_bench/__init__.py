"""``aikg bench``: synthetic data, load measurement, an HTTP mix against peers, and a report."""
