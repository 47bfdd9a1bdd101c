# A pytest plugin of pjrt-cts (`pjrt-cts jax-tests`), loaded with `-p pjrt_cts_jax`: it reports each test's start
# and outcome as JSON lines on the file descriptor PJRT_CTS_JAX_EVENTS_FD (so the parent knows the test in flight
# when the process dies or hangs), drops the tests named in PJRT_CTS_JAX_DESELECT (a file, one node id a line),
# keeps only those of PJRT_CTS_JAX_SELECT when set, and skips the tests that need a capability the plugin declared
# it lacks (PJRT_CTS_JAX_LACKING: a JSON file of {"reason", "tokens"} entries matched against the node id).
# It changes nothing else in how JAX's tests run.
import json
import os
import re
import time

import pytest

CAPABILITY_PREFIX = 'pjrt-cts capability: '
# The frame JAX compiles through (jax/_src/compiler.py): an error raised below it is a compile failure.
COMPILE_FRAMES = {('compiler.py', 'backend_compile_and_load'), ('compiler.py', 'compile_or_get_cached')}
MESSAGE_CHARS = 4000

_out = None
_trace_log = os.environ.get('PJRT_CTS_TRACE_LOG')
_current = {}


def _emit(event):
    global _out
    if _out is None:
        fd = os.environ.get('PJRT_CTS_JAX_EVENTS_FD')
        if not fd:
            return
        _out = os.fdopen(int(fd), 'w', buffering=1)
    _out.write(json.dumps(event) + '\n')
    _out.flush()


def _trace_offset():
    if not _trace_log:
        return None
    try:
        return os.path.getsize(_trace_log)
    except OSError:
        return 0


def _lines(path):
    if not path:
        return set()
    with open(path) as f:
        return {line.rstrip('\n') for line in f if line.strip()}


def _lacking():
    path = os.environ.get('PJRT_CTS_JAX_LACKING')
    if not path:
        return []
    with open(path) as f:
        entries = json.load(f)
    return [(e['reason'], re.compile('(?<![A-Za-z0-9])(?:' + '|'.join(map(re.escape, e['tokens'])) + ')(?![A-Za-z0-9])'))
            for e in entries]


def pytest_collection_modifyitems(session, config, items):
    drop = _lines(os.environ.get('PJRT_CTS_JAX_DESELECT'))
    keep = _lines(os.environ.get('PJRT_CTS_JAX_SELECT')) if os.environ.get('PJRT_CTS_JAX_SELECT') else None
    selected, deselected = [], []
    for item in items:
        if item.nodeid in drop or (keep is not None and item.nodeid not in keep):
            deselected.append(item)
        else:
            selected.append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = selected
    lacking = _lacking()
    for item in items:
        for reason, pattern in lacking:
            if pattern.search(item.nodeid):
                item.add_marker(pytest.mark.skip(reason=CAPABILITY_PREFIX + reason))
                break


def pytest_collection_finish(session):
    event = {'e': 'collected', 'ids': [item.nodeid for item in session.items]}
    try:
        import jax
        devices = jax.devices()
        event['platform'] = devices[0].platform if devices else None
        event['devices'] = len(devices)
        event['platformVersion'] = jax.devices()[0].client.platform_version if devices else None
        event['jax'] = jax.__version__
    except Exception as e:  # the backend did not come up: every test will say so
        event['backendError'] = f'{type(e).__name__}: {e}'[:MESSAGE_CHARS]
    _emit(event)


def pytest_runtest_logstart(nodeid, location):
    _current[nodeid] = {'outcome': 'passed', 'duration': 0.0, 'start': time.time()}
    _emit({'e': 'start', 'id': nodeid, 'trace': _trace_offset()})


def _phase(excinfo):
    for entry in excinfo.traceback:
        frame = (os.path.basename(str(entry.path)), entry.name)
        if frame in COMPILE_FRAMES:
            return 'compile'
    return 'run'


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if call.excinfo is not None and report.failed:
        e = call.excinfo.value
        report.pjrt_cts = {'exc': type(e).__name__, 'excMessage': str(e)[:MESSAGE_CHARS], 'phase': _phase(call.excinfo)}


def pytest_runtest_logreport(report):
    state = _current.setdefault(report.nodeid, {'outcome': 'passed', 'duration': 0.0, 'start': time.time()})
    state['duration'] += report.duration
    if report.failed and state['outcome'] != 'failed':
        state['outcome'] = 'failed'
        state['when'] = report.when
        state['message'] = report.longreprtext[-MESSAGE_CHARS:]
        state.update(getattr(report, 'pjrt_cts', {}))
    elif report.skipped and state['outcome'] == 'passed':
        state['outcome'] = 'skipped'
        if hasattr(report, 'wasxfail'):
            state['message'] = 'xfail in JAX: ' + str(report.wasxfail)
        elif isinstance(report.longrepr, tuple):
            state['message'] = str(report.longrepr[2]).removeprefix('Skipped: ')
    if report.passed and hasattr(report, 'wasxfail'):
        state['message'] = 'xpass in JAX: ' + str(report.wasxfail)


def pytest_runtest_logfinish(nodeid, location):
    state = _current.pop(nodeid, {'outcome': 'passed', 'duration': 0.0})
    state.pop('start', None)
    _emit({'e': 'result', 'id': nodeid, 'trace': _trace_offset(), **state})
