"""Pure projections to text: exports, score sheets, draw sheets, pages, OpenAPI."""
