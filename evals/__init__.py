"""Bundled eval lanes (JSONL data written for this project) and their runner; only verifier.cli imports it."""
