"""tick_changes against a real `tao serve`, sync and asyncio, over stdio and the socket: it answers the plan
of the snapshot its changes make (written out here by hand, and ticked whole on another sidecar), sends
only the changes to a protocol-2 sidecar and the whole snapshot to a protocol-1 one or to a restarted
sidecar, and refuses changes it cannot apply; the busy poll and wake() change no answer."""
import asyncio
import os
import signal
import unittest

import support  # noqa: F401  (puts the source tree first on sys.path)
from support import CALLS, TAO, snapshot, socket_path

from tao_client import AsyncTaoClient, InvalidTypeError, InvalidValueError, TaoClient

S1_RETURNED = {"id": "s1", "tokens": 1536, "tool": {"name": "bash", "startedAt": 99.5, "returnedAt": 100.1}, "cache": [{"node": "b", "tokens": 2048, "observedAt": 90}]}
S3 = {"id": "s3", "tokens": 700, "tool": {"name": "bash", "startedAt": 100.1}}
S4 = {"id": "s4", "tokens": 300}
NODES = [{"id": "a", "capacity": 3500}, {"id": "b", "capacity": 2048}]

#: The changes of each tick after snapshot(), and the snapshot they make, written out whole.
STEPS = [
    (
        {"time": 100.2, "sessions": [S3, S1_RETURNED]},
        {"time": 100.2, "nodes": snapshot()["nodes"], "sessions": [S1_RETURNED, {"id": "s2", "tokens": 2560}, S3]},
    ),
    (
        {"time": 100.4, "sessions": [S4], "remove": ["s2"], "nodes": NODES},
        {"time": 100.4, "nodes": NODES, "sessions": [S1_RETURNED, S3, S4]},
    ),
    (
        {"time": 100.6, "remove": ["s1"]},
        {"time": 100.6, "nodes": NODES, "sessions": [S3, S4]},
    ),
]


def answer(plan):
    """What a plan decides (its stats, such as its wall time, vary from run to run)."""
    return plan["assignments"], plan["value"]


def whole_plans():
    """What each whole snapshot's plan decides, from a sidecar of its own."""
    with TaoClient(TAO) as other:
        other.observe(CALLS)
        return [answer(other.tick(snapshot()).plan)] + [answer(other.tick(whole).plan) for _, whole in STEPS]


class Recorder:
    """Records the request lines a sync client writes (wrapping its connection's send)."""

    def __init__(self, client):
        self.lines = []
        send = client._conn.send

        def recording(data):
            self.lines.append(data)
            send(data)

        client._conn.send = recording


class SyncChanges(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.expected = whole_plans()

    def run_steps(self, tao):
        tao.observe(CALLS)
        plans = [answer(tao.tick(snapshot()).plan)]
        for changes, _ in STEPS:
            plans.append(answer(tao.tick_changes(**changes).plan))
        return plans

    def test_changes_answer_the_plans_of_the_whole_snapshots_and_travel_as_deltas(self):
        with TaoClient(TAO) as tao:
            rec = Recorder(tao)
            self.assertEqual(self.run_steps(tao), self.expected)
        ticks = [line for line in rec.lines if b'"op":"tick"' in line]
        self.assertEqual(len(ticks), 4)
        self.assertIn(b'"snapshot":', ticks[0])
        for line in ticks[1:]:
            self.assertIn(b'"delta":{"base":', line)
            self.assertNotIn(b'"snapshot":', line)

    def test_a_protocol_1_sidecar_gets_the_whole_snapshots(self):
        with TaoClient(TAO, protocols=(1,)) as tao:
            self.assertEqual(tao.server["protocol"], 1)
            rec = Recorder(tao)
            self.assertEqual(self.run_steps(tao), self.expected)
        self.assertFalse(any(b'"delta"' in line for line in rec.lines))

    def test_a_restarted_sidecar_gets_the_whole_snapshot(self):
        with TaoClient(TAO) as tao:
            tao.observe(CALLS)
            tao.tick(snapshot())
            tao.save_predictor()
            os.kill(tao._proc.pid, signal.SIGKILL)
            tao._proc.wait()
            self.assertEqual(answer(tao.tick_changes(**STEPS[0][0]).plan), self.expected[1])
            self.assertEqual(tao.restarts, 1)
            self.assertEqual(answer(tao.tick_changes(**STEPS[1][0]).plan), self.expected[2])

    def test_a_refused_tick_leaves_the_snapshot_the_changes_apply_to(self):
        with TaoClient(TAO) as tao:
            tao.observe(CALLS)
            tao.tick(snapshot())
            with self.assertRaises(InvalidValueError) as caught:
                tao.tick_changes(99)  # before s1's tool call started
            self.assertEqual(caught.exception.message, "snapshot.sessions[0].tool.startedAt must not be after snapshot.time")
            self.assertEqual(answer(tao.tick_changes(**STEPS[0][0]).plan), self.expected[1])

    def test_changes_it_cannot_apply_are_refused_before_sending(self):
        with TaoClient(TAO) as tao:
            with self.assertRaises(InvalidValueError) as caught:
                tao.tick_changes(101)
            self.assertIn("needs a tick(snapshot) before it", caught.exception.message)
            tao.tick(snapshot())
            for changes, error, message in [
                ({"remove": ["zz"]}, InvalidValueError, 'delta.remove[0] names session "zz", which the base snapshot does not hold'),
                ({"remove": ["s1", "s1"]}, InvalidValueError, 'delta.remove[1] repeats session "s1"'),
                ({"remove": [3]}, InvalidTypeError, "delta.remove[0] must be a string"),
                ({"sessions": [{"tokens": 3}]}, InvalidTypeError, "delta.sessions[0] must be an object with a string id"),
                ({"sessions": [S4], "remove": ["s4"]}, InvalidValueError, 'delta.sessions[0] is session "s4", which delta.remove also names'),
                ({"sessions": [S1_RETURNED], "remove": ["s1"]}, InvalidValueError, 'delta.sessions[0] is session "s1", which delta.remove also names'),
            ]:
                with self.assertRaises(error) as caught:
                    tao.tick_changes(101, **changes)
                self.assertEqual(caught.exception.message, message)
            self.assertEqual(tao.stats()["requests"]["tick"], 1)

    def test_busy_poll_and_wake_change_no_answer(self):
        with TaoClient(TAO, busy_poll=0.002, args=["--busy-poll-us", "2000"]) as tao:
            tao.wake()
            tao.observe(CALLS)
            plans = [answer(tao.tick(snapshot()).plan)]
            for changes, _ in STEPS:
                tao.wake()
                plans.append(answer(tao.tick_changes(**changes).plan))
            self.assertEqual(plans, self.expected)

    def test_busy_poll_out_of_range_is_refused(self):
        with self.assertRaises(ValueError):
            TaoClient(TAO, busy_poll=0.5)
        with self.assertRaises(TypeError):
            TaoClient(TAO, busy_poll="1ms")

    def test_over_the_socket(self):
        with TaoClient(TAO, socket=socket_path()) as tao:
            rec = Recorder(tao)
            self.assertEqual(self.run_steps(tao), self.expected)
        self.assertEqual(sum(b'"delta"' in line for line in rec.lines), len(STEPS))


class AsyncChanges(unittest.IsolatedAsyncioTestCase):
    @classmethod
    def setUpClass(cls):
        cls.expected = whole_plans()

    async def run_steps(self, tao):
        await tao.observe(CALLS)
        plans = [answer((await tao.tick(snapshot())).plan)]
        for changes, _ in STEPS:
            plans.append(answer((await tao.tick_changes(**changes)).plan))
        return plans

    async def test_changes_answer_the_plans_of_the_whole_snapshots(self):
        async with AsyncTaoClient(TAO, busy_poll=0.001, args=["--busy-poll-us", "1000"]) as tao:
            self.assertEqual(await self.run_steps(tao), self.expected)
            await tao.wake()
            self.assertEqual(tao.server["protocol"], 2)

    async def test_over_the_socket_and_after_a_restart(self):
        async with AsyncTaoClient(TAO, socket=socket_path()) as tao:
            self.assertEqual(await self.run_steps(tao), self.expected)
            await tao.save_predictor()
            await tao.tick(snapshot())
            tao._conn.proc.kill()
            await tao._conn.proc.wait()
            self.assertEqual(answer((await tao.tick_changes(**STEPS[0][0])).plan), self.expected[1])
            self.assertEqual(tao.restarts, 1)

    async def test_refused_while_another_tick_is_awaited(self):
        async with AsyncTaoClient(TAO) as tao:
            await tao.observe(CALLS)
            await tao.tick(snapshot())
            pending = asyncio.ensure_future(tao.tick(snapshot()))
            await asyncio.sleep(0)
            with self.assertRaises(InvalidValueError) as caught:
                await tao.tick_changes(**STEPS[0][0])
            self.assertIn("while another tick is awaited", caught.exception.message)
            await pending
            self.assertEqual(answer((await tao.tick_changes(**STEPS[0][0])).plan), self.expected[1])


if __name__ == "__main__":
    unittest.main()
