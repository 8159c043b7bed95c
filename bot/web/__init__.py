"""The table in a browser (issue 18): an aiohttp app over the table service (app.py), who may see
which seat (auth.py), the seat's payload (payload.py), the Rummikub layout check (layout.py) and
the push to open pages (push.py). The page itself is static/ (no build step)."""
