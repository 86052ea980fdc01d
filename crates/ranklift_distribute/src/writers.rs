//! Calls outside TensorFlow that write files — NumPy arrays, figures, images, model exports — or
//! write to the console, which N processes would all do (racing on the same paths, interleaving
//! their lines). Framework-neutral knowledge, used by the `rank0_only` rules of every target.

/// Qualified names of functions that write a file.
pub fn is_file_writer(qual: &str) -> bool {
    matches!(
        qual,
        "numpy.save"
            | "numpy.savez"
            | "numpy.savez_compressed"
            | "numpy.savetxt"
            | "matplotlib.pyplot.savefig"
            | "matplotlib.pyplot.imsave"
            | "imageio.imwrite"
            | "imageio.imsave"
            | "imageio.v2.imwrite"
            | "imageio.v3.imwrite"
            | "cv2.imwrite"
            | "scipy.io.savemat"
            | "tensorflow.keras.utils.save_img"
            | "tensorflow.keras.preprocessing.image.save_img"
            | "keras.utils.save_img"
            // Draws the model's graph to `to_file` (`model.png`), or prints how to install
            // pydot when it cannot.
            | "tensorflow.keras.utils.plot_model"
            | "keras.utils.plot_model"
            | "torchvision.utils.save_image"
            | "torch.jit.save"
            | "torch.onnx.export"
            | "json.dump"
            | "pickle.dump"
            | "joblib.dump"
            // A copy or a move writes its destination (the best checkpoint copied from the
            // last one: only rank 0 wrote the source).
            | "shutil.copyfile"
            | "shutil.copy"
            | "shutil.copy2"
            | "shutil.copytree"
            | "shutil.move"
            | "os.rename"
            | "os.replace"
    )
}

/// Qualified names of functions that read a file (the readers of what a write above made).
pub fn is_file_reader(qual: &str) -> bool {
    matches!(
        qual,
        "numpy.load"
            | "numpy.loadtxt"
            | "numpy.genfromtxt"
            | "numpy.fromfile"
            | "json.load"
            | "pickle.load"
            | "joblib.load"
            | "PIL.Image.open"
            | "imageio.imread"
            | "imageio.v2.imread"
            | "imageio.v3.imread"
            | "imageio.mimread"
            | "cv2.imread"
            | "matplotlib.pyplot.imread"
            | "matplotlib.image.imread"
            | "pandas.read_csv"
            | "pandas.read_json"
            | "pandas.read_parquet"
            | "scipy.io.loadmat"
            | "torchvision.io.read_image"
            // A notebook showing a file it made (`display.Image(filename="cvae.gif")` reads
            // it when built).
            | "IPython.display.Image"
            | "IPython.display.SVG"
    )
}

/// Calls that write to the console outside `print` and logging: a hand-made progress bar
/// (`sys.stdout.write(f"\r{i}/{n}")`), a notebook's `display(...)` / `clear_output()` (escape
/// codes on a terminal), which N processes would interleave.
pub fn is_console_output(qual: &str) -> bool {
    matches!(
        qual,
        "sys.stdout.write"
            | "sys.stdout.flush"
            | "sys.stdout.writelines"
            | "pprint.pprint"
            // A line printed above a progress bar.
            | "tqdm.tqdm.write"
            | "tqdm.write"
            | "tqdm.auto.tqdm.write"
            | "IPython.display.display"
            | "IPython.display.clear_output"
    )
}

/// Methods that write a file whatever their receiver (`fig.savefig(...)`).
pub fn is_file_writing_method(name: &str) -> bool {
    matches!(
        name,
        "savefig" | "imsave" | "to_csv" | "to_parquet" | "to_json" | "save_pretrained"
    )
}

/// Calls that open a file for writing whatever their arguments (`with imageio.get_writer(path)
/// as w:` writes the GIF when the block ends).
pub fn is_writer_opener(qual: &str) -> bool {
    matches!(
        qual,
        "imageio.get_writer" | "imageio.v2.get_writer" | "imageio.v3.imopen"
    )
}

/// Calls that open a file for writing when their mode says so (`open(path, "w")`,
/// `h5py.File(path, "w")`, `tf.io.gfile.GFile(path, "w")`): the qualified name, and the mode's
/// position among the positional arguments.
pub fn mode_opener(qual: &str) -> Option<usize> {
    match qual {
        "open" | "io.open" | "builtins.open" | "codecs.open" | "gzip.open" | "bz2.open" => Some(1),
        "h5py.File" | "tensorflow.io.gfile.GFile" | "tensorflow.gfile.GFile" => Some(1),
        _ => None,
    }
}

/// A mode string that writes (`"w"`, `"a"`, `"x"`, `"wb"`, `"r+"`).
pub fn is_write_mode(mode: &str) -> bool {
    mode.chars().any(|c| matches!(c, 'w' | 'a' | 'x' | '+'))
}

/// Calls that create a PIL image (`Image.fromarray(a).save(path)` writes a file).
pub fn makes_pil_image(qual: &str) -> bool {
    matches!(
        qual,
        "PIL.Image.fromarray"
            | "PIL.Image.open"
            | "PIL.Image.new"
            | "tensorflow.keras.utils.array_to_img"
            | "tensorflow.keras.preprocessing.image.array_to_img"
    )
}

/// Methods of a PIL image that return another image (`img.resize((64, 64)).save(p)`).
pub fn image_method_returns_image(method: &str) -> bool {
    matches!(
        method,
        "resize" | "convert" | "rotate" | "crop" | "transpose" | "copy" | "quantize" | "filter"
    )
}

/// `os.makedirs(p)` without `exist_ok`, or `os.mkdir(p)`: every rank runs the program's setup,
/// and the second rank to create the directory raises `FileExistsError`. The edits that make it
/// `os.makedirs(p, exist_ok=True)` (`qual` is the call's qualified name), or none.
pub fn shared_dir_edits(
    src: &str,
    call: &ruff_python_ast::ExprCall,
    qual: &str,
) -> Vec<ranklift_python::Edit> {
    use ruff_python_ast::Expr;
    use ruff_text_size::Ranged;
    let args = &call.arguments;
    let has_exist_ok = args
        .keywords
        .iter()
        .any(|k| k.arg.is_none() || k.arg.as_ref().is_some_and(|a| a.as_str() == "exist_ok"));
    match qual {
        "os.makedirs" if !has_exist_ok && args.args.len() < 3 => {
            vec![crate::editor::add_keyword_edit(src, call, "exist_ok=True")]
        }
        // `os.mkdir(p)` (its `mode` kept): `mkdir` becomes `makedirs`, which also accepts
        // `exist_ok`. Only as an attribute of `os`, so no import changes.
        "os.mkdir"
            if !has_exist_ok
                && args.args.len() <= 2
                && args
                    .keywords
                    .iter()
                    .all(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == "mode")) =>
        {
            let Expr::Attribute(a) = &*call.func else {
                return Vec::new();
            };
            vec![
                ranklift_python::Edit::replace(a.attr.range(), "makedirs"),
                crate::editor::add_keyword_edit(src, call, "exist_ok=True"),
            ]
        }
        _ => Vec::new(),
    }
}
