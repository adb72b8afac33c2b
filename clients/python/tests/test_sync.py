"""TaoClient against a real `tao serve`: ticks equal evaluate then solve, the carried plan, typed errors
with the sidecar's code, NaN and self-references refused before sending, notifications, timeouts, restart
with the predictor restored, the protocol check, and the socket transport."""
import os
import signal
import subprocess
import unittest

import support  # noqa: F401  (puts the source tree first on sys.path)
from support import BAD_MESSAGE, BAD_PROBLEM, CALLS, TAO, snapshot, socket_path, wait_until_listening

from tao_client import (
    InvalidTypeError,
    InvalidValueError,
    ProtocolError,
    SidecarExitedError,
    TaoClient,
    TaoError,
    TaoTimeoutError,
)


class SyncStdio(unittest.TestCase):
    def setUp(self):
        self.tao = TaoClient(TAO)
        self.addCleanup(self.tao.close)

    def test_protocol_agreed_at_start(self):
        self.assertEqual(self.tao.server["protocol"], 2)
        self.assertIn("tick", self.tao.server["ops"])

    def test_tick_is_evaluate_then_solve_in_one_call(self):
        self.tao.observe(CALLS)
        result = self.tao.tick(snapshot(), solve_options={"quantum": 16})
        problem = self.tao.evaluate(snapshot())
        plan = self.tao.solve(problem, {"quantum": 16})
        self.assertEqual(result.plan["assignments"], plan["assignments"])
        self.assertEqual(result.plan["value"], plan["value"])
        self.assertEqual(result.plan["assignments"], [{"session": "s1", "node": "b"}, {"session": "s2", "node": "a"}])
        self.assertEqual(set(result.signatures), {"s1", "s2"})
        self.assertIsNone(result.revalidation)

    def test_tick_carries_over_what_still_holds(self):
        self.tao.observe(CALLS)
        first = self.tao.tick(snapshot())
        # a shrank: s2 (3072 tokens) no longer fits there; s1 on b is kept, and the newcomer s3 is planned on a.
        second = self.tao.tick(snapshot(101, a_capacity=3000, extra=[{"id": "s3", "tokens": 500}]), previous=first.carry())
        self.assertEqual(second.revalidation["outcome"], "truncated")
        self.assertEqual(second.revalidation["applied"], [{"session": "s1", "node": "b"}])
        self.assertEqual(second.revalidation["cutAt"]["reason"]["code"], "capacity")
        self.assertEqual(second.plan["assignments"], [{"session": "s3", "node": "a"}])
        self.assertEqual(second.assignments, [{"session": "s1", "node": "b"}, {"session": "s3", "node": "a"}])
        self.assertEqual(set(second.carry()["signatures"]), {"s1", "s3"})

    def test_error_response_raises_the_typed_exception_with_the_code(self):
        with self.assertRaises(InvalidValueError) as caught:
            self.tao.solve(BAD_PROBLEM)
        self.assertEqual(caught.exception.code, "ERR_TAO_INVALID_VALUE")
        self.assertEqual(caught.exception.message, BAD_MESSAGE)
        self.assertEqual(caught.exception.op, "solve")
        with self.assertRaises(InvalidTypeError) as caught:
            self.tao.evaluate({"time": "now", "nodes": [], "sessions": []})
        self.assertEqual(caught.exception.code, "ERR_TAO_INVALID_TYPE")
        self.assertEqual(self.tao.hello()["ok"], True)  # the sidecar keeps serving

    def test_infinity_and_self_reference_are_refused_before_sending(self):
        with self.assertRaises(InvalidValueError) as caught:
            self.tao.solve({"nodes": [], "sessions": []}, {"deadlineMs": float("inf")})
        self.assertIn("NaN or Infinity", caught.exception.message)
        with self.assertRaises(InvalidTypeError):
            self.tao.observe([{"name": "bash", "startedAt": 1, "returnedAt": {1, 2}}])
        looped = {"nodes": [], "sessions": []}
        looped["sessions"].append(looped)
        with self.assertRaises(InvalidValueError) as caught:
            self.tao.solve(looped)
        self.assertIn("refers to itself", caught.exception.message)
        self.assertEqual(self.tao.stats()["requests"]["solve"], 0)

    def test_observe_notification_gets_no_response(self):
        self.assertIsNone(self.tao.observe(CALLS, wait=False))
        stats = self.tao.stats()
        self.assertEqual(stats["requests"]["observe"], 1)
        self.assertEqual(stats["predictor"], {"tools": 1, "globalSamples": 2})

    def test_timeout_drops_the_connection_and_the_next_call_restarts(self):
        with self.assertRaises(TaoTimeoutError) as caught:
            self.tao.solve({"nodes": [{"id": "a", "capacity": 64}], "sessions": []}, timeout=1e-9)
        self.assertIsInstance(caught.exception, TimeoutError)
        self.assertEqual(self.tao.hello()["ok"], True)
        self.assertEqual(self.tao.restarts, 1)

    def test_a_dead_sidecar_is_restarted_with_the_last_saved_predictor(self):
        self.tao.observe(CALLS)
        saved = self.tao.save_predictor()
        self.tao._proc.send_signal(signal.SIGKILL)
        self.tao._proc.wait()
        self.assertEqual(self.tao.save_predictor(), saved)
        self.assertEqual(self.tao.restarts, 1)
        self.assertEqual(self.tao.stats()["predictor"], {"tools": 1, "globalSamples": 2})

    def test_close_shuts_the_sidecar_down_with_exit_0(self):
        self.assertEqual(self.tao.close(), 0)
        with self.assertRaises(SidecarExitedError):
            self.tao.hello()


class SyncOther(unittest.TestCase):
    def test_without_restart_a_dead_sidecar_raises(self):
        with TaoClient(TAO, restart=False) as tao:
            tao._proc.kill()
            tao._proc.wait()
            with self.assertRaises(SidecarExitedError) as caught:
                tao.hello()
            self.assertEqual(caught.exception.code, "ERR_TAO_CLIENT_EXITED")

    def test_no_shared_protocol_is_refused_at_start(self):
        with self.assertRaises(ProtocolError) as caught:
            TaoClient(TAO, protocols=(99,))
        self.assertIn("shares no version", caught.exception.message)

    def test_a_line_over_the_cap_is_a_typed_error_not_an_id_mismatch(self):
        with TaoClient(TAO, args=["--max-line-bytes", "200"]) as tao:
            with self.assertRaises(InvalidValueError) as caught:
                tao.evaluate(snapshot())
            self.assertIn("line must be at most 200 bytes", caught.exception.message)

    def test_bad_timeouts_are_refused(self):
        for bad in (0, -1, float("nan"), float("inf")):
            with self.assertRaises(ValueError):
                TaoClient(TAO, timeout=bad)
        with self.assertRaises(TypeError):
            TaoClient(TAO, timeout="1")

    def test_errors_share_one_base(self):
        for cls in (InvalidTypeError, InvalidValueError, ProtocolError, SidecarExitedError, TaoTimeoutError):
            self.assertTrue(issubclass(cls, TaoError))


class SyncSocket(unittest.TestCase):
    def test_spawned_socket_sidecar(self):
        path = socket_path()
        with TaoClient(TAO, socket=path, stderr=subprocess.DEVNULL) as tao:
            self.assertTrue(os.path.exists(path))
            tao.observe(CALLS)
            self.assertEqual(len(tao.tick(snapshot()).plan["assignments"]), 2)
            saved = tao.save_predictor()
            tao._proc.kill()  # the whole server dies (its socket file left behind): started again, predictor restored
            tao._proc.wait()
            self.assertTrue(os.path.exists(path))
            self.assertEqual(tao.save_predictor(), saved)
            self.assertEqual(tao.restarts, 1)
        self.assertFalse(os.path.exists(path))

    def test_a_timeout_on_a_spawned_socket_sidecar_restarts_it_cleanly(self):
        path = socket_path()
        with TaoClient(TAO, socket=path, stderr=subprocess.DEVNULL) as tao:
            with self.assertRaises(TaoTimeoutError):
                tao.solve({"nodes": [], "sessions": []}, timeout=1e-9)
            self.assertTrue(tao.hello()["ok"])
            self.assertEqual(tao.restarts, 1)
        self.assertFalse(os.path.exists(path))

    def test_a_path_that_is_not_a_stale_socket_is_left_alone(self):
        path = socket_path()
        with open(path, "w") as f:
            f.write("mine")
        with self.assertRaises(SidecarExitedError):
            TaoClient(TAO, socket=path, stderr=subprocess.DEVNULL)
        with open(path) as f:
            self.assertEqual(f.read(), "mine")

    def test_connecting_to_a_running_sidecar_leaves_it_running(self):
        path = socket_path()
        server = subprocess.Popen([*__import__("tao_client").find_tao(TAO), "serve", "--socket", path], stderr=subprocess.DEVNULL)
        try:
            wait_until_listening(path)
            with TaoClient(socket=path, spawn=False) as one, TaoClient(socket=path, spawn=False) as two:
                one.observe(CALLS)
                self.assertEqual(two.stats()["predictor"]["globalSamples"], 2)  # one predictor for every connection
            self.assertIsNone(server.poll())
        finally:
            server.terminate()
            self.assertEqual(server.wait(10), 0)


if __name__ == "__main__":
    unittest.main()
