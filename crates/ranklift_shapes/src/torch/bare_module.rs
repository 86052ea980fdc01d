//! Library model: a bare `nn.Module()` used as a namespace of submodules.
//!
//! **Trigger:** `nn.Module()` called with no arguments (not a subclass: `super().__init__()`
//! is the subclass's own path).
//!
//! **Result:** an object whose attributes are those the program sets (`down.block = blocks`),
//! read back as set; any other attribute (`down.parameters`, `down.training`) is unknown, never
//! an error.
//!
//! **Why:** the diffusion and VQGAN code that many models copy groups each resolution's
//! blocks this way (`down = nn.Module(); down.block = block; down.attn = attn;
//! self.down.append(down)`, then `self.down[i].block[j](h, temb)` in `forward`): as an unknown
//! library object, the whole encoder and decoder were dark.
//!
//! ```python
//! mid = nn.Module()
//! mid.block = nn.Conv2d(32, 32, 3, padding=1)
//! mid.block(torch.randn(1, 16, 8, 8))   # W521: expected input to have 32 channels
//! ```
use ruff_text_size::TextRange;

use crate::interp::Interp;
use crate::interp::state::{Obj, State};
use crate::interp::value::Value;

impl Interp<'_> {
    /// `nn.Module()`: an empty namespace, not exact (see the module doc).
    pub(crate) fn bare_module(&mut self, range: TextRange, st: &mut State) -> Value {
        let addr = self.heap_addr(u32::from(range.start()));
        st.insert_obj(addr, Obj::unknown_dict());
        Value::Namespace(addr)
    }
}
