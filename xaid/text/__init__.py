"""Language-level helpers that memory, mood, the scheduler and the prompt share: which characters
are Chinese, stopwords, a token estimate, hard features and relative times. Pure functions over
text (and the clock for "today"): no SQL, no asyncio, nothing from the services above them."""
