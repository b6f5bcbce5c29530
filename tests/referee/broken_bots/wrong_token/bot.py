"""Says Hello with a wrong token (ARENA_TEST_MODE ``token``, the default) or with protocol
version 2 (``version``), and logs how the referee answered."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import grpc
from _shared import MODE, RawClient, log, note_pid


def main() -> int:
    note_pid()
    client = RawClient()
    if MODE == "version":
        client.send(client.hello(version=2))
    else:
        client.send(client.hello(token="not-the-token"))
    try:
        for message in client.call:
            log("handshake.jsonl", {"message": message.WhichOneof("message")})
    except grpc.RpcError as exc:
        log("handshake.jsonl", {"code": exc.code().name, "details": exc.details()})
        return 2
    finally:
        client.half_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
