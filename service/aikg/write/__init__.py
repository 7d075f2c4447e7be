"""The write path: the SHACL gate and the log of what each write touched."""
