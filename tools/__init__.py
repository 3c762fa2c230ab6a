"""Tools of the repository that do not ship with the service."""
