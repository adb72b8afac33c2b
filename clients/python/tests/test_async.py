"""AsyncTaoClient against a real `tao serve`: concurrent ticks pipelined on one connection and answered
in order, typed errors, notifications, timeouts, restart with the predictor restored, the protocol check,
and the socket transport."""
import asyncio
import os
import subprocess
import unittest

import support  # noqa: F401  (puts the source tree first on sys.path)
from support import BAD_MESSAGE, BAD_PROBLEM, CALLS, TAO, snapshot, socket_path

from tao_client import AsyncTaoClient, InvalidValueError, ProtocolError, SidecarExitedError, TaoClient, TaoTimeoutError


def one_at_a_time(snaps):
    """The same ticks through the sync client, one request at a time."""
    with TaoClient(TAO) as sync:
        sync.observe(CALLS)
        return [sync.tick(s).plan["value"] for s in snaps]


class AsyncStdio(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self):
        self.tao = await AsyncTaoClient(TAO).start()

    async def asyncTearDown(self):
        await self.tao.close()

    async def test_concurrent_ticks_each_get_their_own_answer(self):
        await self.tao.observe(CALLS)
        # Different snapshots at once: each answer must be its own (s3's size tells them apart).
        snaps = [snapshot(100, extra=[{"id": "s3", "tokens": 10 * k}]) for k in range(1, 21)]
        results = await asyncio.gather(*[self.tao.tick(s) for s in snaps])
        expected = await asyncio.to_thread(one_at_a_time, snaps)
        self.assertEqual([r.plan["value"] for r in results], expected)
        self.assertEqual(len({r.plan["value"]["tokens"] for r in results}), len(snaps))

    async def test_error_response_raises_the_typed_exception(self):
        with self.assertRaises(InvalidValueError) as caught:
            await self.tao.solve(BAD_PROBLEM)
        self.assertEqual((caught.exception.code, caught.exception.message), ("ERR_TAO_INVALID_VALUE", BAD_MESSAGE))
        with self.assertRaises(InvalidValueError):
            await self.tao.evaluate(snapshot(), {"halfLife": float("nan")})
        self.assertTrue((await self.tao.hello())["ok"])

    async def test_notification_then_stats(self):
        self.assertIsNone(await self.tao.observe(CALLS, wait=False))
        self.assertEqual((await self.tao.stats())["predictor"], {"tools": 1, "globalSamples": 2})

    async def test_timeout_then_restart(self):
        with self.assertRaises(TaoTimeoutError):
            await self.tao.solve({"nodes": [], "sessions": []}, timeout=1e-9)
        self.assertTrue((await self.tao.hello())["ok"])
        self.assertEqual(self.tao.restarts, 1)

    async def test_a_dead_sidecar_is_restarted_with_the_last_saved_predictor(self):
        await self.tao.observe(CALLS)
        saved = await self.tao.save_predictor()
        self.tao._conn.proc.kill()
        await self.tao._conn.proc.wait()
        self.assertEqual(await self.tao.save_predictor(), saved)
        self.assertEqual(self.tao.restarts, 1)


class AsyncOther(unittest.IsolatedAsyncioTestCase):
    async def test_no_shared_protocol_is_refused_at_start(self):
        with self.assertRaises(ProtocolError):
            async with AsyncTaoClient(TAO, protocols=(99,)):
                pass

    async def test_without_restart_a_dead_sidecar_raises(self):
        async with AsyncTaoClient(TAO, restart=False) as tao:
            tao._conn.proc.kill()
            await tao._conn.proc.wait()
            with self.assertRaises(SidecarExitedError):
                await tao.stats()

    async def test_socket_transport(self):
        path = socket_path()
        async with AsyncTaoClient(TAO, socket=path, stderr=subprocess.DEVNULL) as tao:
            await tao.observe(CALLS)
            result = await tao.tick(snapshot())
            self.assertEqual(result.plan["assignments"], [{"session": "s1", "node": "b"}, {"session": "s2", "node": "a"}])
            async with AsyncTaoClient(socket=path, spawn=False) as other:
                self.assertEqual((await other.stats())["predictor"]["globalSamples"], 2)
        self.assertFalse(os.path.exists(path))


if __name__ == "__main__":
    unittest.main()
