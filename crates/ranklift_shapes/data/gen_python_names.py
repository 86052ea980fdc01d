"""Write python_builtins.txt (builtin names; it lives in crates/ranklift_python/data/) and python_types.txt (`<type> <attribute>` for the
plain types whose missing attributes ranklift shapes reports as E011). Run with the CPython
whose names to record:  python3 gen_python_names.py"""
import builtins, sys
v = sys.version.split()[0]
with open("python_builtins.txt", "w") as f:
    print("# python", v, file=f)
    for n in sorted(dir(builtins)):
        print(n, file=f)
with open("python_types.txt", "w") as f:
    print("# python", v, file=f)
    for name, obj in [("int", 1), ("float", 1.0), ("bool", True), ("NoneType", None),
                      ("str", ""), ("list", []), ("tuple", ())]:
        for a in sorted(dir(obj)):
            print(name, a, file=f)
