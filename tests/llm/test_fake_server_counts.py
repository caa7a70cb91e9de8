"""The fake server's `answered` counter, which tests read to prove nothing was paid twice, is already counted
when a client has read the whole answer (CI once read a run's 40th answer as 39 under load)."""

import http.client
import json
import sys
import threading
from urllib.parse import urlsplit

from tests.fakes.llm_server import answer


def test_an_answer_is_counted_before_the_client_can_read_all_of_it(llm_server):
    llm_server.respond_with(lambda request: answer("ok"))
    stop = threading.Event()

    def busy() -> None:  # a thread competing for the interpreter, as a loaded CI machine makes one
        while not stop.is_set():
            pass

    switch_interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often, so the window between write and count is found
    threading.Thread(target=busy, daemon=True).start()
    connection = http.client.HTTPConnection(urlsplit(llm_server.url).netloc)
    early = []
    try:
        for number in range(1, 1001):
            connection.request("POST", "/v1/chat/completions", json.dumps({"model": "m", "messages": []}),
                               {"content-type": "application/json"})
            connection.getresponse().read()
            if llm_server.answered != number:  # (an answer is counted before the next request on this connection)
                early.append(number)
    finally:
        stop.set()
        sys.setswitchinterval(switch_interval)
        connection.close()
    assert early == []
