"""Rendering the precompiled templates without importing Jinja, for the templates that allow it.

Importing ``jinja2`` (its environment pulls in the lexer, parser, compiler, filters and
bytecode cache) is about 15 ms of CPU, a sixth of a no-op ``generate`` of the example, yet
the modules of ``codegen/precompiled/`` only call a small part of Jinja's runtime: macros,
loops, attribute lookups, string joins. ``without_jinja(name, context)`` runs such a module
against the stand-ins below and returns its text, or ``None`` whenever it cannot vouch for it:

* the module is missing or stale (same rules as ``render._load``: the template's SHA-256, the
  installed Jinja's version and the environment's options, read here without importing it);
* the template reaches for anything the stand-ins do not provide: a filter or a test, a
  global (``range``, ``namespace``), an undefined value other than the inline ``if``'s
  empty ``else``, a macro called with ``caller`` or extra arguments, autoescaping. Each of
  these raises ``Unsupported`` at the moment it is reached;
* rendering raises anything at all (a view refusing a schema, say).

``render`` (what ``render_headers`` calls) then asks Jinja (``render.render``), which renders
the same text or raises the real error with Jinja's messages; nothing is written before a
whole text exists, so a render abandoned halfway has no effect. Each stand-in does exactly what Jinja's runtime
(3.1) does on the paths it supports; ``tests/codegen/test_precompiled_runtime.py`` renders
every target's template both ways and compares the bytes.
"""

from __future__ import annotations

import builtins
import os

__all__ = ["render", "render_chunks", "without_jinja", "Unsupported"]


class Unsupported(Exception):
    """The template needs a part of Jinja these stand-ins do not provide."""


class _Missing:
    """Jinja's ``missing``: an argument or name that was not given."""

    def __repr__(self) -> str:
        return "missing"


missing = _Missing()


class Undefined:
    """Jinja's lenient ``Undefined``, which the generated code only makes for an inline ``if``
    without ``else`` (``cond_expr_undefined``) and prints as the empty string; any other use
    of it is left to Jinja."""

    def __init__(self, *args, **kwargs) -> None:
        pass

    def __str__(self) -> str:
        return ""

    def __getattr__(self, name: str):
        raise Unsupported(f"an attribute of an undefined value: {name}")

    def __bool__(self):
        raise Unsupported("the truth of an undefined value")

    def __iter__(self):
        raise Unsupported("a loop over an undefined value")


def _unsupported(*args, **kwargs):
    raise Unsupported("a part of Jinja's runtime these stand-ins leave to Jinja")


def _identity(x):
    return x


def str_join(seq) -> str:
    return "".join(map(str, seq))


def markup_join(seq) -> str:
    items = list(seq)
    if any(hasattr(x, "__html__") for x in items):
        raise Unsupported("markup")
    return "".join(map(str, items))


class LoopContext:
    """Jinja's ``loop`` of a ``for`` over a finite sequence (views hand lists and tuples)."""

    depth0 = 0
    depth = 1

    def __init__(self, iterable, undefined, recurse=None, depth0=0) -> None:
        if recurse is not None or depth0:
            raise Unsupported("a recursive loop")
        self._items = list(iterable)
        self.length = len(self._items)
        self.index0 = -1

    def __iter__(self):
        for item in self._items:
            self.index0 += 1
            yield item, self

    def __len__(self) -> int:
        return self.length

    @property
    def index(self) -> int:
        return self.index0 + 1

    @property
    def revindex0(self) -> int:
        return self.length - self.index

    @property
    def revindex(self) -> int:
        return self.length - self.index0

    @property
    def first(self) -> bool:
        return self.index0 == 0

    @property
    def last(self) -> bool:
        return self.index0 == self.length - 1

    @property
    def previtem(self):
        if self.index0 == 0:
            raise Unsupported("loop.previtem on the first item")
        return self._items[self.index0 - 1]

    @property
    def nextitem(self):
        if self.index0 + 1 >= self.length:
            raise Unsupported("loop.nextitem on the last item")
        return self._items[self.index0 + 1]

    def cycle(self, *args):
        if not args:
            raise Unsupported("loop.cycle()")
        return args[self.index0 % len(args)]

    def changed(self, *value):
        raise Unsupported("loop.changed()")


class Macro:
    """Jinja's ``Macro`` for macros without ``caller``, ``varargs`` or ``kwargs``, called
    without autoescaping: positional arguments first, then keyword arguments by name, the
    rest ``missing`` (the macro's body supplies its defaults)."""

    def __init__(self, environment, func, name, arguments, catch_kwargs, catch_varargs,
                 caller, default_autoescape=None) -> None:
        if catch_kwargs or catch_varargs or caller or default_autoescape:
            raise Unsupported(f"macro {name} takes caller, varargs or kwargs, or autoescapes")
        self._func = func
        self.name = name
        self.arguments = arguments

    def __call__(self, *args, **kwargs):
        if len(args) > len(self.arguments):
            raise Unsupported(f"macro {self.name} called with too many arguments")
        arguments = list(args)
        for name in self.arguments[len(args):]:
            arguments.append(kwargs.pop(name, missing))
        if kwargs:
            raise Unsupported(f"macro {self.name} called with unknown arguments")
        return self._func(*arguments)


class _EvalContext:
    autoescape = False
    volatile = False


class _Context:
    """The names a template sees: the render's keyword arguments only (no Jinja globals)."""

    def __init__(self, names: dict) -> None:
        self._names = names
        self.vars: dict = {}
        self.exported_vars: set = set()
        self.eval_ctx = _EvalContext()

    def resolve_or_missing(self, key: str):
        if key in self.vars:
            return self.vars[key]
        return self._names.get(key, missing)

    def call(__self, __obj, *args, **kwargs):
        # Jinja passes the context or environment to callables marked for it (none of the
        # views' are): left to Jinja.
        if hasattr(__obj, "jinja_pass_arg") or hasattr(getattr(__obj, "__call__", None),
                                                        "jinja_pass_arg"):
            raise Unsupported("a callable that takes Jinja's context")
        kwargs.pop("_block_vars", None)
        kwargs.pop("_loop_vars", None)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:
            raise Unsupported("a callable raised StopIteration") from None


class _Module:
    """An imported template (``{% import "_macros.j2" as m %}``): its exported names. Its
    text (``{{ m }}``) is left to Jinja."""

    def __init__(self, exported: dict) -> None:
        self.__dict__.update(exported)

    def __str__(self) -> str:
        raise Unsupported("the text of an imported template")


class _Template:
    def __init__(self, environment: "_Environment", namespace: dict, module: str) -> None:
        self._environment = environment
        self.module = module
        self._root = namespace["root"]
        if namespace.get("blocks"):
            raise Unsupported("template blocks")
        self._module = None

    def render(self, names: dict, join="".join):
        return join(self._root(_Context(names)))

    def _get_default_module(self, context=None) -> _Module:
        # As Jinja when the importing context adds no globals: one module per template,
        # rendered in a context of its own (``import`` does not pass the importer's names).
        if self._module is None:
            context = _Context({})
            for _ in self._root(context):
                pass
            self._module = _Module({k: context.vars[k] for k in context.exported_vars})
        return self._module


class _Environment:
    """What the generated code asks of ``environment``. Only lookups that succeed are
    answered; everything Jinja would turn into an ``Undefined`` is left to Jinja."""

    concat = "".join

    def __init__(self, folder: str, packaged: bool) -> None:
        self._folder = folder
        self._packaged = packaged
        self._templates: dict = {}

    def getattr(self, obj, attribute):
        try:
            return getattr(obj, attribute)
        except AttributeError:
            pass
        try:
            return obj[attribute]
        except (TypeError, LookupError, AttributeError):
            raise Unsupported(f"undefined attribute {attribute!r}") from None

    def getitem(self, obj, argument):
        try:
            return obj[argument]
        except (AttributeError, TypeError, LookupError):
            if isinstance(argument, str):
                try:
                    return getattr(obj, argument)
                except AttributeError:
                    pass
            raise Unsupported(f"undefined item {argument!r}") from None

    def undefined(self, *args, **kwargs):
        raise Unsupported("an undefined name or parameter")

    def get_template(self, name: str, parent=None) -> _Template:
        from .render import PRECOMPILED_PACKAGE, module_name

        # Keyed by the module too: which module a template's is can change (tests do it).
        key = (name, f"{PRECOMPILED_PACKAGE}.{module_name(name)}")
        template = self._templates.get(key)
        if template is None:
            if key in self._templates:
                raise Unsupported(f"{name} was left to Jinja")
            self._templates[key] = None  # until it loads: a stale module is tried once
            template = self._templates[key] = _load(self, name, key[1])
        return template

    def render(self, name: str, names: dict, join=None):
        template = self.get_template(name)
        try:
            return template.render(names) if join is None else template.render(names, join)
        except Exception:
            self._templates[name, template.module] = None  # Jinja's from now on
            raise

    def source(self, name: str) -> str:
        path = os.path.join(self._folder, *name.split("/"))
        if self._packaged:  # as Jinja's PackageLoader: the bytes, decoded
            with open(path, "rb") as f:
                return f.read().decode("utf-8")
        with open(path, encoding="utf-8") as f:  # as its FileSystemLoader
            return f.read()


#: What ``from jinja2.runtime import …`` gives a precompiled module run here.
_RUNTIME = {
    "LoopContext": LoopContext, "Macro": Macro, "Undefined": Undefined, "missing": missing,
    "str_join": str_join, "markup_join": markup_join, "identity": _identity,
    "internalcode": _identity, "escape": _unsupported, "Markup": _unsupported,
    "Namespace": type("Namespace", (), {}), "TemplateNotFound": Unsupported,
    "TemplateReference": _unsupported, "TemplateRuntimeError": Unsupported,
}


class _RuntimeModule:
    def __init__(self) -> None:
        self.__dict__.update(_RUNTIME)

    def __getattr__(self, name: str):
        # AttributeError, as a module's: ``from … import name`` turns it into ImportError
        # (what the render below catches), and ``getattr(m, name, default)`` still answers.
        raise AttributeError(f"the stand-in runtime has no {name!r}")


_RUNTIME_MODULE = _RuntimeModule()


def _import(name, globals=None, locals=None, fromlist=(), level=0):
    if name == "jinja2.runtime" and level == 0 and fromlist:
        return _RUNTIME_MODULE
    if name.split(".")[0] in ("jinja2", "markupsafe"):
        raise Unsupported(f"the module imports {name}")
    return builtins.__import__(name, globals, locals, fromlist, level)


_BUILTINS = dict(builtins.__dict__, __import__=_import)


def _jinja_version():
    """The installed Jinja's version, read from its ``__init__.py`` (``find_spec`` of a
    top-level package imports nothing); ``None`` when it cannot be read."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("jinja2")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith("__init__.py"):
        return None
    try:
        with open(spec.origin, encoding="utf-8") as f:
            for line in f:
                if line.startswith("__version__ = "):
                    return line.split("=", 1)[1].strip().strip("\"'")
    except OSError:
        return None
    return None


def _environment_key():
    """``render.environment_key`` of the environment ``render.environment`` makes, without
    making it: Jinja's default delimiters and the options set there."""
    import hashlib

    version = _jinja_version()
    if version is None:
        return None
    options = (version, "{%", "%}", "{{", "}}", "{#", "#}", None, None, True, True, "\n", True,
               True, False, repr(False), [])
    return hashlib.sha256(repr(options).encode("utf-8")).hexdigest()


def _load(environment: _Environment, name: str, module: str) -> _Template:
    import importlib.util
    from importlib.machinery import SourceFileLoader

    from .render import source_digest

    spec = importlib.util.find_spec(module)
    if spec is None or not spec.has_location or not str(spec.origin).endswith(".py"):
        raise Unsupported(f"no precompiled module file for {name}")
    # Its code from its bytecode (or source), as an import would read it; by the standard
    # loader of a source file, whoever's finder found it (pytest's, say).
    code = SourceFileLoader(spec.name, spec.origin).get_code(spec.name)
    namespace = {"__builtins__": _BUILTINS, "__name__": spec.name, "environment": environment}
    exec(code, namespace)
    if (namespace.get("SOURCE_SHA256") != source_digest(environment.source(name))
            or namespace.get("ENVIRONMENT") != _KEY.get()):
        raise Unsupported(f"the precompiled module of {name} is stale")
    return _Template(environment, namespace, module)


class _Once:
    def __init__(self, make) -> None:
        self._make, self._done, self._value = make, False, None

    def get(self):
        if not self._done:
            self._value, self._done = self._make(), True
        return self._value


_KEY = _Once(_environment_key)


def _environment():
    """The stand-in environment of the folder ``render.environment`` reads templates from,
    or ``None`` for a package in a zip file, whose templates Jinja's PackageLoader reads.
    Looked up once per place to look (tests point ``render`` elsewhere), not per render: a
    run renders a header per schema file and target."""
    from .render import _REPO_TEMPLATES, _packaged_templates

    where = (_packaged_templates, _REPO_TEMPLATES)
    if where not in _ENVIRONMENTS:
        packaged = _packaged_templates()
        if packaged is not None and not isinstance(packaged, os.PathLike):
            _ENVIRONMENTS[where] = None
        else:
            folder = str(packaged if packaged is not None else _REPO_TEMPLATES)
            _ENVIRONMENTS[where] = _Environment(folder, packaged is not None)
    return _ENVIRONMENTS[where]


_ENVIRONMENTS: dict = {}


def render(template_name: str, **context) -> str:
    """``render.render``: the stand-ins' text when they can vouch for it, else Jinja's."""
    text = without_jinja(template_name, context)
    if text is not None:
        return text
    from .render import render as with_jinja

    return with_jinja(template_name, **context)


def render_chunks(join, template_name: str, **context):
    """``render``, with the pieces handed to ``join`` as they are printed (it returns the
    text in whatever form it keeps it: ``codegen._chunked``'s chunks), by the stand-ins
    when they can vouch for the text, else by Jinja."""
    text = without_jinja(template_name, context, join)
    if text is not None:
        return text
    from .render import render_pieces

    return join(render_pieces(template_name, **context))


def without_jinja(name: str, names: dict, join=None):
    """The text of template ``name`` rendered with ``names`` by the stand-ins, or ``None``:
    Jinja must render it (see the module's docstring). ``join`` (default: one string)
    receives the pieces as they are printed."""
    environment = _environment()
    if environment is None:
        return None
    try:
        return environment.render(name, names, join)
    except Exception:
        return None
