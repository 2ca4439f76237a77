"""A command group whose subcommands are imported when they run (or `--help` lists
them): `referee replay verify` loads what verifying needs, not the web stack."""

from importlib import import_module

import click


class LazyGroup(click.Group):
    """A click group with `lazy` subcommands, each named by "module:attribute"."""

    def __init__(self, *args, lazy: dict[str, str] | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every subcommand, loaded or not, sorted."""
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The subcommand, imported now if it is a lazy one."""
        if cmd_name in self.lazy and cmd_name not in self.commands:
            module, attribute = self.lazy[cmd_name].split(":")
            self.add_command(getattr(import_module(module), attribute), cmd_name)
        return super().get_command(ctx, cmd_name)
