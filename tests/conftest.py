"""Fixtures every test directory may use."""

# The PostgreSQL test server (started only when a test asks for it): tests/storage/pg_fixtures.py.
pytest_plugins = ["tests.storage.pg_fixtures"]
