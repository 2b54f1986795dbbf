"""The OpenAI-compatible HTTP surface: the door that SillyTavern, Open WebUI, Home Assistant and
every OpenAI SDK already know, served by the daemon itself beside the CBOR socket.

HTTP comes from h11, the HTTP/1.1 state machine that uvicorn and httpx are built on: it parses and
frames, and does no I/O of its own, so it runs over the daemon's own asyncio transports
(``server.transport.Stream``, the same path as the CBOR connections) with no second server, event
loop or thread. It is one small pure-Python wheel, which a Pi can carry; aiohttp's server would
bring its own connection handling, C extensions and a dozen dependencies for two routes.

Modules: ``listener`` (where it listens and who may come in), ``token`` (the bearer token for TCP),
``exchange`` (one connection: h11 in, responses and SSE out), ``guard`` (Host, Origin, token),
``openai`` (the request and response shapes), ``sse`` (the event stream with keep-alives),
``chats`` (which xaid session a request continues, regenerates, retries, client tasks), ``routes``
(``/v1/models`` and ``/v1/chat/completions``).
"""
