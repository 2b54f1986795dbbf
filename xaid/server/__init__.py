"""The wire edge: a request from a socket to a service and its reply back.

``listen`` binds (or takes systemd's) Unix socket and checks who connects; ``transport`` is the
small stream over asyncio's protocol; ``connection`` reads frames and runs one task per call;
``dispatch`` holds the method registry and the params checks; ``methods/`` has one module per
namespace, the place where a request reaches the services; ``paging`` is their limit/cursor.
Nothing under ``xaid`` below this package imports it.
"""
