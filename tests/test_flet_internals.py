"""companion reads Flet's internals only through companion/flet_internals.py, written for one Flet
release (FLET_VERSION). On any other release these tests fail, each naming the internal to check
again: pinning another Flet is editing that module (and companion/web/build.py's text edits of
flet-web's files, checked here on copies of the installed files)."""
from __future__ import annotations

import asyncio
import dataclasses
import importlib
import importlib.metadata
import inspect
import re
import shutil
import types

import flet as ft
import msgpack

from companion import flet_internals
from companion.flet_internals import FLET_VERSION
from companion.web import build
from tests.conftest import ROOT

UPGRADE = f"companion/flet_internals.py was written for Flet {FLET_VERSION}: check each of its internals again"


def test_the_installed_and_pinned_flet_is_the_one_the_internals_were_written_for():
    for package in ("flet", "flet-web"):
        assert importlib.metadata.version(package) == FLET_VERSION, f"{package} {importlib.metadata.version(package)}: {UPGRADE}"
    assert f'"flet[web]=={FLET_VERSION}"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8"), UPGRADE
    for lock in ("app", "test"):
        text = (ROOT / "requirements" / f"{lock}.txt").read_text(encoding="utf-8")
        assert f"\nflet=={FLET_VERSION} " in text and f"\nflet-web=={FLET_VERSION} " in text, f"requirements/{lock}.txt"


def test_a_controls_properties_are_in_its_values_and_its_id_in_i():
    """set_fields (`_values`) and control_id (`_i`)."""
    handler = print
    button = ft.Button(content=ft.Text("x"), on_click=handler)
    fields = dict(flet_internals.set_fields(button))
    assert fields.get("on_click") is handler and isinstance(fields.get("content"), ft.Text), f"_values: {UPGRADE}"
    assert isinstance(flet_internals.control_id(button), int), f"_i: {UPGRADE}"
    assert flet_internals.control_id(button) != flet_internals.control_id(button.content)


def _controls(kind: type) -> set[type]:
    found = {kind}
    for sub in kind.__subclasses__():
        found |= _controls(sub)
    return found


def test_every_field_of_every_flet_control_is_where_set_fields_reads():
    """What set_fields reads, for every control class of Flet: each public dataclass field is a Prop
    (kept in `_values` when it is not its default) or a plain attribute (in the instance's dict). A
    field behind a property or another descriptor would keep a handler or a child where the shell's
    walk (stamping handlers with the version drawn) never looks. The screen tests walk their draws
    with set_fields (tests/test_screens.py), trusting this."""
    from flet.controls.value_types import Prop
    for name in dir(ft):  # Flet imports its controls when they are first named
        getattr(ft, name, None)
    hidden = []
    for kind in _controls(ft.BaseControl):
        if not dataclasses.is_dataclass(kind):
            continue
        for field in dataclasses.fields(kind):
            if field.name.startswith("_"):
                continue
            raw = next((vars(k)[field.name] for k in kind.__mro__ if field.name in vars(k)), None)
            if not isinstance(raw, Prop) and hasattr(raw, "__set__"):
                hidden.append(f"{kind.__name__}.{field.name}: {type(raw).__name__}")
    assert len(_controls(ft.BaseControl)) > 150 and not hidden, f"{hidden}: {UPGRADE}"


def test_the_session_dispatches_events_by_control_id_and_holds_an_index():
    """intercept_lost_events replaces `Session.dispatch_event(control_id, event_name, event_data)`
    and reads `Session.index`."""
    from flet.messaging.session import Session

    assert list(inspect.signature(Session.dispatch_event).parameters) == [
        "self", "control_id", "event_name", "event_data"], f"Session.dispatch_event: {UPGRADE}"
    assert inspect.iscoroutinefunction(Session.dispatch_event) and isinstance(Session.index, property), UPGRADE


def test_lost_events_go_to_the_shell_and_the_others_to_flet():
    seen = []

    async def dispatch_event(control_id, event_name, event_data):
        seen.append(("flet", control_id, event_name, event_data))

    async def lost(control_id, event_name, event_data):
        seen.append(("lost", control_id, event_name, event_data))

    session = types.SimpleNamespace(index={7: object()}, dispatch_event=dispatch_event)
    assert flet_internals.intercept_lost_events(types.SimpleNamespace(session=session), lost)
    asyncio.run(session.dispatch_event(7, "click", None))
    asyncio.run(session.dispatch_event(8, "click", "x"))
    assert seen == [("flet", 7, "click", None), ("lost", 8, "click", "x")]
    assert not flet_internals.intercept_lost_events(types.SimpleNamespace(), lost)


def test_the_web_connection_lets_go_of_its_send_queue():
    """connection_closing reads `_FletApp__send_queue`: FletApp sets it to None when its sending ends."""
    from flet_web.fastapi.flet_app import FletApp

    source = inspect.getsource(FletApp)
    assert "self.__send_queue = asyncio.Queue()" in source and "self.__send_queue = None" in source, \
        f"FletApp.__send_queue: {UPGRADE}"
    connection = FletApp.__new__(FletApp)
    connection._FletApp__send_queue = None
    page = types.SimpleNamespace(session=types.SimpleNamespace(connection=connection))
    assert flet_internals.connection_closing(page)
    connection._FletApp__send_queue = asyncio.Queue()
    assert not flet_internals.connection_closing(page)


def test_the_client_frames_are_the_ones_flet_web_reads():
    """frame_fault knows each action the web client sends, its body's fields, and the frame's shape
    (a 0 byte, then msgpack of [action, body]), as flet-web's handler reads them."""
    from flet.messaging import protocol
    from flet_web.fastapi.flet_app import FletApp

    bodies = {protocol.MessageAction.REGISTER_CLIENT: protocol.RegisterClientRequestBody,
              protocol.MessageAction.CONTROL_EVENT: protocol.ControlEventBody,
              protocol.MessageAction.UPDATE_CONTROL_PROPS: protocol.UpdateControlPropsBody,
              protocol.MessageAction.INVOKE_METHOD: protocol.InvokeMethodResponseBody}
    assert {action.value: {f.name for f in dataclasses.fields(body)} for action, body in bodies.items()} == {
        action: set(fields) for action, fields in flet_internals.CLIENT_ACTIONS.items()}, f"the client's frames: {UPGRADE}"
    assert protocol.MessageAction.REGISTER_CLIENT.value == flet_internals.REGISTER
    assert "msgpack.unpackb(data[1:], ext_hook=decode_ext_from_msgpack)" in inspect.getsource(FletApp), UPGRADE
    frame = b"\0" + msgpack.packb([3, {"target": 5, "name": "click", "data": None}])
    assert flet_internals.frame_fault({"bytes": frame}, True) == (None, False)
    assert flet_internals.frame_fault({"bytes": frame}, False)[0] == "action 3 before the registration"


def test_the_builds_edits_of_flet_web_find_their_text(tmp_path):
    """companion/web/build.py edits flet-web's page, Flutter's loader and the Dart program as text: on
    copies of the installed files, each edit finds what it replaces (else the build stops, naming it)."""
    import flet_web

    web = build.Path(flet_web.get_package_web_dir())
    for name in ("index.html", "flutter_bootstrap.js", "main.dart.mjs", "main.dart.js", "main.dart.wasm"):
        shutil.copyfile(web / name, tmp_path / name)
    build._patch_index(tmp_path / "index.html", "0.0")
    build._patch_bootstrap(tmp_path / "flutter_bootstrap.js")
    build._patch_main(tmp_path)
    assert build.RIVE_STUB.encode() in (tmp_path / "main.dart.wasm").read_bytes()
    edits = re.findall(r"is this flet-web ([^?]*)\?", (ROOT / "companion" / "web" / "build.py").read_text(encoding="utf-8"))
    assert edits and set(edits) == {"{FLET_VERSION}"}, "build.py's messages name the version flet_internals pins"


def test_no_other_module_reads_these_internals():
    readers = [path.relative_to(ROOT).as_posix() for path in sorted((ROOT / "companion").rglob("*.py"))
               if path.name != "flet_internals.py" and re.search(
                   r"_FletApp__|\b_values\b|\"_i\"|\._i\b|dispatch_event|decode_ext_from_msgpack", path.read_text(encoding="utf-8"))]
    assert readers == []
