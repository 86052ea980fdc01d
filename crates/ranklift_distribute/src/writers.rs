//! Calls outside TensorFlow that write files — NumPy arrays, figures, images — which N processes
//! would all write (racing on the same paths). Framework-neutral knowledge, used by
//! `rules::rank0_only`.

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
    )
}

/// Methods that write a file whatever their receiver (`fig.savefig(...)`).
pub fn is_file_writing_method(name: &str) -> bool {
    matches!(name, "savefig" | "imsave" | "to_csv" | "to_parquet")
}

/// Calls that create a PIL image (`Image.fromarray(a).save(path)` writes a file).
pub fn makes_pil_image(qual: &str) -> bool {
    matches!(
        qual,
        "PIL.Image.fromarray"
            | "PIL.Image.open"
            | "PIL.Image.new"
            | "tensorflow.keras.utils.array_to_img"
    )
}
