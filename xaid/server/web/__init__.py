"""The memory page: what the companion remembers about its person, and their say over it, served
by the daemon at ``/`` of its HTTP listener (docs/web.md).

Server-rendered HTML with a little script, no build step and no asset from elsewhere. Modules:
``site`` (routes, sign-in, the CSRF and Origin checks), ``views`` (what a page reads, as records),
``pages`` (the HTML of each page), ``plot`` (the mood plot as SVG), ``markup`` (HTML built with
escaping by default), ``i18n`` (English and Chinese), ``assets`` (the style sheet and the script).
The services are the CBOR methods' own: ``memory.search``'s ranking (``methods.memory.find``), the
erase path (``methods.memory.forget_*`` → ``memory.erase``), ``memory.portable.export``, the
correction through the UPDATE path (``memory.correct``), the scheduler's settings.
"""
