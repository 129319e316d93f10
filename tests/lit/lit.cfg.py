# lit configuration for ptx-opt. Substitutions:
#   ptx-opt, FileCheck, not   the tools
#   %ptxas-check <file>       ptxas accepts <file> for its .target (skipped
#                             with a note when ptxas is missing, and in the
#                             sanitizer build: config.ptxas_skip says why)
#   %python                   the Python interpreter
import os
import lit.formats

config.name = "ptx-opt"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ptx", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ptxopt_obj_root, "tests", "lit")

config.environment["PATH"] = os.pathsep.join(
    [config.ptxopt_obj_root, config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
config.substitutions.append(("%python", config.python))
if getattr(config, "ptxas_skip", ""):
    assert "'" not in config.ptxas_skip, "ptxas_skip goes into a single-quoted echo"
    config.substitutions.append(("%ptxas-check", f"echo 'ptxas-check: skipped ({config.ptxas_skip})'"))
else:
    config.substitutions.append(
        ("%ptxas-check", f"{config.python} {config.ptxopt_src_root}/scripts/test/ptxas-check.py --ptxas '{config.ptxas}'"))
config.substitutions.append(("%src", config.ptxopt_src_root))
