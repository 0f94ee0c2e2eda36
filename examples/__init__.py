"""Worked examples, run from the project root; not part of the installed distribution.

``bgverify crosscheck --against examples.naive_admissibility:check`` imports
:mod:`examples.naive_admissibility` by its dotted name, so this folder is a package.
The data files beside it (``ribbon.json``, ``apples.jsonl``, ``corpus.jsonl``) and the
notebook ``corpus.ipynb`` are read by path.
"""
