//! Library model: pytest's (and unittest's) module setup.
//!
//! **Trigger:** a module-level `def setup_module(module):` (or `setUpModule()`) in the file
//! analysed.
//!
//! **Result:** it runs after the module's body, as the test runner runs it before the tests,
//! with the module itself as its argument; `module.NAME = value` in it binds the module's global
//! `NAME`, which the test functions (analysed afterwards) then read.
//!
//! **Why:** test files that build their fixtures this way read names that the module body never
//! binds: each read was reported as a `NameError` that never happens (21 false alarms in one
//! package).
//!
//! ```python
//! def setup_module(module):
//!     module.A = np.zeros((3, 4))
//!
//! def test_product():
//!     A @ np.ones((3, 2))   # W504 matmul: ... (size 3 is different from 4)
//! ```
use std::sync::Arc;

use super::call::Args;
use super::state::{Binding, Env, State};
use super::value::{ModRef, Value};
use super::{Interp, ModStatus};

impl Interp<'_> {
    /// Run the entry module's `setup_module(module)` / `setUpModule()`, if it has one, on its
    /// globals; the globals it leaves are the module's from then on.
    pub(crate) fn run_module_setup(&mut self, entry: u32, globals: Arc<Env>) -> Arc<Env> {
        let (id, takes_module) = match (globals.get("setup_module"), globals.get("setUpModule")) {
            (
                Some(Binding {
                    value: Value::Func(id),
                    ..
                }),
                _,
            ) => (*id, true),
            (
                _,
                Some(Binding {
                    value: Value::Func(id),
                    ..
                }),
            ) => (*id, false),
            _ => return globals,
        };
        let mut st = State::new();
        st.globals = globals;
        let args = Args {
            pos: if takes_module {
                vec![Value::Module(ModRef::User(entry))]
            } else {
                Vec::new()
            },
            ..Args::default()
        };
        let range = self.funcs[id as usize].def.range;
        let saved = self.cur_module;
        self.cur_module = entry;
        self.call_function(id, None, args, range, &mut st);
        self.cur_module = saved;
        self.modules[entry as usize].status = ModStatus::Done(st.globals.clone());
        st.globals
    }

    /// `module.NAME = v` on the module whose globals `st` holds: binds the global.
    pub(crate) fn set_module_global(
        &mut self,
        m: u32,
        name: &str,
        v: Value,
        st: &mut State,
    ) -> bool {
        if m != self.cur_module {
            return false;
        }
        Arc::make_mut(&mut st.globals).insert(
            name.into(),
            Binding {
                value: v,
                maybe_unbound: false,
            },
        );
        true
    }
}
