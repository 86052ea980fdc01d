//! `from utils import *` between project modules.
//!
//! **Trigger:** a module star-imports a project module (recorded per module while the index is
//! collected, [`crate::index::ModuleInfo::star_imports`]).
//!
//! **Effect:** the imported module's public module-level functions and classes (names without a
//! leading underscore) become names of the importer, bound as `from utils import name` would
//! bind them; the importer's own definitions and explicit imports win.
//!
//! **Why:** calls of those helpers must resolve to the project's functions, so that the rules
//! follow them: a checkpoint written by `save_checkpoint` from a star-imported `utils.py` (an
//! image-captioning project's layout) went unguarded, written by every rank at once.
//!
//! ```python
//! from utils import *            # utils.py: def save_checkpoint(...): torch.save(state, path)
//! save_checkpoint(epoch, model.module.state_dict())
//! # before: utils.py unchanged; every rank writes the file
//! # after:  utils.py's torch.save under `if RANK == 0:`
//! ```
use crate::index::Index;

/// Bind every star-imported name (after all modules are merged, before names are resolved).
pub fn bind(idx: &mut Index) {
    for m in 0..idx.modules.len() {
        for t in idx.modules[m].star_imports.clone() {
            let tname = idx.project.modules[t].name.clone();
            let names: Vec<String> = idx.modules[t]
                .funcs
                .keys()
                .chain(idx.modules[t].classes.keys())
                .filter(|n| !n.starts_with('_'))
                .cloned()
                .collect();
            let info = &mut idx.modules[m];
            for n in names {
                if !info.aliases.contains_key(&n) {
                    let q = format!("{tname}.{n}");
                    info.import_bound.insert(n.clone());
                    info.aliases.insert(n, q);
                }
            }
        }
    }
}
