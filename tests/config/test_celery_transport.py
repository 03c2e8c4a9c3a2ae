"""The broker transport (config/celery_transport.py): one Redis client per channel for
kombu's synchronous commands, against the real broker. Tasks still go out and come back
(the Celery worker tests play whole matches through it), and a replaced pool gets a
client of its own."""

from __future__ import annotations

from django.conf import settings
from kombu import Connection, Exchange, Queue

from config.celery import app as celery_app
from config.celery_transport import Channel, Transport
from tests.games.support import TEST_QUEUE
from tests.workers import purge_test_queue


def test_the_service_publishes_through_it():
    assert settings.CELERY_BROKER_TRANSPORT == "config.celery_transport:Transport"
    with celery_app.connection_for_write() as conn:
        assert isinstance(conn.transport, Transport)
        assert isinstance(conn.default_channel, Channel)


def test_one_client_serves_every_command_of_a_channel():
    with Connection(celery_app.conf.broker_url, transport=Transport) as conn:
        channel = conn.default_channel
        first = channel._create_client()
        assert channel._create_client() is first
        with channel.conn_or_acquire() as client:
            assert client is first
            assert client.ping()


def test_a_replaced_pool_gets_a_client_of_its_own():
    with Connection(celery_app.conf.broker_url, transport=Transport) as conn:
        channel = conn.default_channel
        first = channel._create_client()
        channel._pool = None  # what kombu does after a connection error
        second = channel._create_client()
        assert second is not first and second.connection_pool is channel.pool
        assert second.ping()


def test_messages_published_and_taken_through_it_arrive_once_each():
    purge_test_queue()
    try:
        with Connection(celery_app.conf.broker_url, transport=Transport) as conn:
            queue = conn.SimpleQueue(Queue(TEST_QUEUE, Exchange(TEST_QUEUE),
                                           routing_key=TEST_QUEUE))
            for number in range(3):
                queue.put({"n": number})
            taken = []
            for _ in range(3):
                message = queue.get(timeout=5)
                taken.append(message.payload["n"])
                message.ack()
            assert taken == [0, 1, 2]
            assert conn.default_channel.client.llen(TEST_QUEUE) == 0  # none left, none twice
            queue.close()
    finally:
        purge_test_queue()
