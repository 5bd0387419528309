"""The runner's side inside the sandbox: the worker, its isolation, and one tool example.

Run by the plugin environment's interpreter, never imported into the generator's process for a
run: these modules drive the real `dify_plugin` SDK, which patches the whole process with gevent.
The worker has no project on its path, so `__main__.py` loads this folder's parent by path as a
package of its own; the modules therefore import only the standard library and each other
(relative imports, `..wire` included), and so also import normally as `generator.run.child`.

- `zygote`: the worker's loop; forks a child per example
- `isolation`: the sandbox, set up as root once and cleaned after every example
- `harness`: one example in its child: the plugin's copy, the tool loaded and invoked
- `session`: the SDK, its session, and each yielded message as Dify receives it
- `daemon`: the local stand-in for Dify that serves the session's calls back into it
- `guard`: the network guard; `recorder`: recorded examples (vcrpy)
"""
