"""A real SMTP server for the mail tests: aiosmtpd on a free port of 127.0.0.1, keeping
every message it is sent, parsed (email.message.EmailMessage) so a test reads the parts,
headers and links the way a mail client would."""

from __future__ import annotations

import re
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as default_policy

from aiosmtpd.controller import Controller

from tests.ports import free_port

LINK = re.compile(r"https?://[^\s<>\"]+/mail/(?:confirm|unsubscribe)/[^\s<>\"/]+/")


@dataclass
class Received:
    recipients: list[str]
    message: EmailMessage

    @property
    def subject(self) -> str:
        return str(self.message["Subject"])

    def part(self, content_type: str) -> str:
        for part in self.message.walk():
            if part.get_content_type() == content_type and not part.is_multipart():
                return part.get_content()
        raise AssertionError(f"no {content_type} part in {self.subject!r}")

    @property
    def text(self) -> str:
        return self.part("text/plain")

    @property
    def html(self) -> str:
        return self.part("text/html")

    def links(self, kind: str) -> list[str]:
        """The plain text's links to ``/mail/<kind>/...``, in order."""
        return [link for link in LINK.findall(self.text) if f"/mail/{kind}/" in link]


class Inbox:
    """aiosmtpd's handler: what arrived, in order."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self._lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope) -> str:
        message = message_from_bytes(envelope.original_content or envelope.content,
                                     policy=default_policy)
        with self._lock:
            self.received.append(Received(list(envelope.rcpt_tos), message))
        return "250 Message accepted for delivery"

    def wait_for(self, count: int, timeout: float = 30.0) -> list[Received]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if len(self.received) >= count:
                    return list(self.received)
            time.sleep(0.05)
        raise AssertionError(f"{len(self.received)} mails arrived, not {count}")

    def to(self, address: str) -> list[Received]:
        return [mail for mail in self.received if address in mail.recipients]


@contextmanager
def running_smtp_server():
    """(inbox, port) of an SMTP server that lives for the block."""
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()
