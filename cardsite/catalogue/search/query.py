"""The query parser now lives in engines/filters/syntax.py (search, deck rules and simulations
share it); these names stay importable from here for the modules that still read them here."""

from engines.filters.syntax import And, Node, Not, Or, QuerySyntaxError, Term, parse, terms

__all__ = ["And", "Node", "Not", "Or", "QuerySyntaxError", "Term", "parse", "terms"]
