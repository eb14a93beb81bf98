"""End to end with the official MCP Python SDK client (`mcp` from PyPI).

Run by `serve.rs` (`python_sdk_client_end_to_end`) as
`python mcp_python_client.py TOOLSMITH MANIFEST SKILL RISK WORKDIR`: it starts
`toolsmith serve --mcp` over stdio, lists the tools, calls one that succeeds,
one that is refused (a leading `-`), one that times out, and cancels one whose
process (and its child) must then be gone. Exits non-zero on any mismatch.
"""

import os
import sys

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def text(result):
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def alive(pid):
    """True while the process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


async def read_pid(path):
    with anyio.fail_after(20):
        while True:
            try:
                with open(path) as f:
                    return int(f.read().strip())
            except (OSError, ValueError):
                await anyio.sleep(0.02)


async def main(toolsmith, manifest, skill, risk, workdir):
    params = StdioServerParameters(
        command=toolsmith,
        # The tools write their pid files into workdir: a granted root.
        args=["serve", "--mcp", manifest, skill, "--risk", risk, "--timeout", "0.5",
              "--write", workdir],
    )
    async with stdio_client(params, errlog=open(os.devnull, "w")) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            assert init.server_info.name == "toolsmith", init.server_info

            listed = await session.list_tools()
            tools = {t.name: t for t in listed.tools}
            assert {"echo", "slow", "hang", "list_directory"} <= set(tools), sorted(tools)
            echo = tools["echo"]
            assert echo.input_schema["properties"] == {"text": {"type": "string"}}, echo.input_schema
            assert echo.annotations.read_only_hint is True, echo.annotations
            assert tools["touch_marker"].annotations.destructive_hint is True

            ok = await session.call_tool("echo", {"text": "from python"})
            assert not ok.is_error, text(ok)
            assert ok.structured_content == {"got": {"text": "from python"}}, ok

            refused = await session.call_tool("list_directory", {"path": "-rf"})
            assert refused.is_error, text(refused)
            assert text(refused).startswith("refused (leading_dash): "), text(refused)

            slow = await session.call_tool("slow", {})
            assert slow.is_error, text(slow)
            assert text(slow).startswith("timed_out: "), text(slow)

            # Cancelling the caller's task sends notifications/cancelled.
            pid_file = os.path.join(workdir, "pid")
            child_file = os.path.join(workdir, "child")
            async with anyio.create_task_group() as group:
                group.start_soon(session.call_tool, "hang", {})
                pid = await read_pid(pid_file)
                child = await read_pid(child_file)
                group.cancel_scope.cancel()
            with anyio.fail_after(20):
                while alive(pid) or alive(child):
                    await anyio.sleep(0.05)

            after = await session.call_tool("echo", {"text": "still serving"})
            assert not after.is_error, text(after)
    print("mcp python client: ok")


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:6])
