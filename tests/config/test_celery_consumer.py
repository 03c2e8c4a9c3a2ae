"""The worker's consumer after a lost broker connection (config/celery_consumer.py).

With the thread pool a finished task's ack waits for the consumer's event loop; a task
that ended just before Redis went away had its ack run after the reconnection, on the old
channel of the collected connection, and the worker died of ``AttributeError: 'NoneType'
object has no attribute 'client'`` (seen once in the fault suite: test_broker_outage).
The lost connection's channels now drop such acks and rejects."""

from __future__ import annotations

import pytest
from kombu import Message

from config.celery import app as celery_app
from config.celery_consumer import let_channels_go


def _message_on_a_collected_connection(let_go: bool) -> Message:
    connection = celery_app.connection_for_read()
    channel = connection.default_channel  # connects, as the consumer's channel is
    message = Message(body=b"{}", delivery_tag="a-tag", channel=channel)
    if let_go:
        let_channels_go(connection)
    connection.collect()  # what celery does with a lost connection: the transport detached
    return message


def test_an_ack_on_a_lost_connection_s_channel_killed_the_worker():
    message = _message_on_a_collected_connection(let_go=False)
    with pytest.raises(AttributeError):
        message.ack()


def test_the_consumer_lets_the_lost_channels_go_and_their_acks_do_nothing():
    message = _message_on_a_collected_connection(let_go=True)
    message.ack()
    message = _message_on_a_collected_connection(let_go=True)
    message.reject()
