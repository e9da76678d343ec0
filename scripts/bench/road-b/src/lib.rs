//! Road (b): the crate rs-trafilatura on the page's visible HTML. `extract_text` is what the
//! background would run; the wasm32 build exports it over linear memory (`road_b_alloc`,
//! `road_b_extract`) so the bench can time it in V8 without wasm-bindgen.

/// The main text rs-trafilatura finds in `html` (empty when it finds none).
pub fn extract_text(html: &str, url: &str) -> String {
    let options = rs_trafilatura::Options {
        url: Some(url.to_owned()),
        ..rs_trafilatura::Options::default()
    };
    rs_trafilatura::extract_with_options(html, &options)
        .map(|r| r.content_text)
        .unwrap_or_default()
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    /// A buffer of `len` bytes the host writes the HTML into.
    #[unsafe(no_mangle)]
    pub extern "C" fn road_b_alloc(len: usize) -> *mut u8 {
        let mut v = Vec::<u8>::with_capacity(len);
        let p = v.as_mut_ptr();
        std::mem::forget(v);
        p
    }

    /// Extracts from the `len` bytes at `ptr` (freed here); the text's length in bytes.
    ///
    /// # Safety
    /// `ptr` must come from `road_b_alloc(len)` and hold `len` bytes of UTF-8.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn road_b_extract(ptr: *mut u8, len: usize) -> usize {
        let bytes = unsafe { Vec::from_raw_parts(ptr, len, len) };
        let html = String::from_utf8_lossy(&bytes);
        super::extract_text(&html, "https://example.com/").len()
    }
}
