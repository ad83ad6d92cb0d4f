"""Discord cogs: parse and authorise interactions, call the service, post what it returns."""
