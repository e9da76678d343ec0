//! The page's main text, over the rendered (visible) text: the rules of the Readability family,
//! tuned on the article-extraction dev corpus (`scripts/bench/reader.mjs`) and using what only
//! the observation knows (what is visible).
//!
//! Rules (each has a unit test in `tests.rs` named after it):
//! - M1 paragraphs: the visible text of a block that is not inside a block of its own (a `p`, or
//!   the bare text of a `div`), split at `<br>` (`br_separated_text_is_paragraphs`), is a
//!   paragraph when it has at least 25 bytes. Headings and list items are not paragraphs, nor
//!   a text of one word said five times or more, a script's font probe
//!   (`a_font_probes_repeated_word_is_no_paragraph`).
//!   Paragraphs inside unlikely parts (comments, related posts, sharing, navigation, asides,
//!   footers, forms: see M4) never count (`comment_threads_are_not_candidates`; a cookie or
//!   consent notice, `gdpr-banner`: `a_consent_banners_prose_is_no_candidate`; a notice that
//!   scripts are off, a `noscript`'s "JavaScript is disabled…", which M4 and M8 cut as well:
//!   `a_notice_that_scripts_are_off_is_no_content`), nor on a page
//!   that sells (M8's buy control) those inside its furniture (customer reviews, seller,
//!   returns: M8's class words), which M4 cuts too (`a_shops_reviews_are_not_its_article`);
//!   M4 cuts its legal small print as M8 does (`a_shops_legal_small_print_is_cut`).
//! - M2 scoring: a paragraph scores 1 + its commas + one per 100 bytes (at most 3) and gives it to
//!   its container (the block holding it; for a leaf block, that block's parent), half to the
//!   next ancestor, score / (3 × level) further up (5 levels). Each candidate starts from its tag
//!   (div +5; pre, td, blockquote +3; lists, forms −3; headings, th −5) and its class/id hints
//!   (article, content, main, post, … +25; weak negative: nav, footer, sidebar, meta, … −25;
//!   not layout wrappers' tokens: `layout_wrappers_are_not_hint_words`, nor script hooks'
//!   `js-…`: `script_hook_classes_are_not_hint_words`, nor a breakpoint's
//!   `hidden`: `breakpoint_hidden_classes_are_not_noise`, nor a part's, `field--label-hidden`:
//!   `a_class_hiding_a_part_is_not_noise`, nor a table's sideways scroller,
//!   `scrollable-table`: `a_tables_scrolling_wrapper_is_not_noise`, nor scroll-margin utilities:
//!   `scroll_margin_utilities_are_not_hint_words`, nor a heading's `anchor…` token, where its
//!   anchor stops under a sticky navbar: `a_headings_anchor_classes_are_not_hint_words`, nor an
//!   id that spells its heading's words, a heading's or a part of one's, a section's or a
//!   block's of four words or more, an anchor: `an_id_that_spells_its_heading_is_no_hint`,
//!   past a generator's section prefix, `s-widgets`:
//!   `a_section_prefix_before_a_heading_slug_is_no_hint`;
//!   "header" is no negative word:
//!   `a_header_class_is_not_noise`, nor "tools", a toolbar's and a tooltip's are:
//!   `a_tools_class_is_not_noise`).
//!   The final score is scaled by 1 − link density (`link_dense_blocks_lose`; a heading's link
//!   to itself, `#examples`, is no link text: `a_headings_own_anchor_is_not_link_text`; nor a
//!   link whose text is code, a reference naming an entry: `a_link_naming_code_is_not_link_text`).
//!   The best wins; a parent that scores at least as well replaces it.
//!   A `display: contents` element draws no box: the parent and the grandparent a paragraph
//!   scores, the winner's parent and its siblings are the boxes around it, a wrapper's children
//!   standing in its place (`sections_wrapped_in_display_contents_are_siblings`).
//! - M3 siblings: a sibling of the winner joins when it scores at least a fifth of it (and 10),
//!   or is a paragraph of over 80 bytes with little link text. The sibling before the parts
//!   that holds the page's `h1` and is mostly prose, three paragraphs or more, joins them (a
//!   reference page's header: its title and lead, `a_documents_lead_beside_its_sections_is_kept`).
//! - M4 cleaning inside the chosen part, outermost first: `nav`, `aside`, `footer`, `form`,
//!   a part's own footer by a class token (`article-footer`, whatever positive word it holds:
//!   `a_parts_footer_is_cut`), a box about the writer by a class token holding "author" and
//!   "box", "card", "about", "bio" and the like (`about_author`, `elementor-author-box`: the
//!   site's, not the article's; M4 only, a listing's cards name their authors alike:
//!   `a_box_about_the_writer_is_cut_from_the_article`),
//!   `button` (not one that asks a question, an FAQ's question opening its answer:
//!   `question_buttons_are_kept`, nor an accordion's title, holding a heading or in one, or
//!   named "accordion": `an_accordions_title_buttons_are_kept`), navigation-like roles, parts whose class or id says
//!   comments, replies, related posts, sharing, newsletters, ads (not a token that hides them,
//!   `hide-…-ad`, `no-ads`: `tokens_that_hide_ads_are_not_ads`; nor a component's modifier,
//!   `container--section-more-ads`, a layout leaving room for ads: `a_layouts_modifier_naming_ads_is_no_ad`), bylines
//!   (`related_post_cards_are_cut`; not inside `pre` or
//!   `code`, where class words name a highlighter's tokens, `hljs-comment`:
//!   `class_words_inside_code_do_not_cut`; nor words of a sentence, an inline element on a
//!   line of prose, though text for screen readers only is cut wherever it sits:
//!   `an_articles_words_are_not_cut_by_their_class`), an ad slot's label ("Advertisement":
//!   `an_ad_slots_label_is_cut`), the heading that
//!   repeats the page's title, captions and credits (`captions_are_cut`; not a code listing's,
//!   a caption beside code and no picture: `a_code_listings_caption_is_kept`; nor one numbering its
//!   figure, "Figure 4-1:": `a_numbered_figures_caption_is_kept`), a thread's furniture
//!   around a post as M8 names it (an author card, `user-info`, `postprofile`; a signature,
//!   `post-signature`: who wrote it, their standing and when, not what they wrote:
//!   `a_posts_author_card_is_cut_from_its_article`) and its controls' and notices' labels
//!   ("Ask question", "Start asking to get answers": `a_threads_notices_are_cut_from_its_article`;
//!   a reply's subject line, "Re: …" over each post: `a_replys_subject_line_is_cut`; a post's
//!   number, "#12" linking to it: `a_posts_number_link_is_cut`; a thread's notes, "Thread
//!   starter …", "Last edited: …": `a_threads_notes_are_cut`),
//!   a quote whose long lines the part has read above it, a reply quoting an earlier post, with
//!   its "… said:" (M8's rule: `a_quote_of_an_earlier_post_is_read_once`), and a second copy of
//!   the part's content (M8's rule: `a_second_copy_of_the_content_is_read_once`), a section
//!   a recommendations heading heads, under half of the part ("You might also like", M8's rule:
//!   `recommendations_inside_the_article_part_are_cut`),
//!   short blocks that are
//!   all link (`link_only_promotions_are_cut`; not a definition list's term nor a table's cell,
//!   a reference entry's name linked to its own page:
//!   `linked_terms_of_a_definition_list_are_kept`, `linked_table_cells_are_kept`) or start by
//!   pointing elsewhere ("Related:",
//!   "Read more", "Sign up", …: `pointer_blocks_are_cut`; not a paragraph that is a sentence
//!   saying where to read on, "Read more about aliases in the dedicated section.", its link
//!   under half of it: `a_sentence_pointing_to_a_section_is_kept`), and containers (div, section, lists,
//!   tables, header) that the
//!   conditional rule finds to be noise: a negative hint, more list items than paragraphs, many
//!   inputs (a form's fields; the buttons a page opens its accordions, tabs or code copies with
//!   are not inputs: `buttons_do_not_make_a_block_a_form`), nearly no text (not a block that
//!   wraps a heading: `headings_wrapped_in_a_block_are_kept`, nor one short sentence without a
//!   link, a version note: `a_short_block_of_one_sentence_is_kept`, nor one of two paragraphs or
//!   more, a reference's parameter and its type: `short_blocks_of_several_paragraphs_are_kept`),
//!   or mostly links
//!   (`headline_lists_are_cut`); never a code block
//!   (a container with most of its text in `pre`; nor a block inside `pre` or `code`, a code
//!   editor's line: `a_code_editors_short_lines_are_kept`; nor a block inside a heading, a
//!   signature's `where` clause: `a_block_inside_a_heading_is_kept`), whose copy button and icons are not a form's
//!   (`code_blocks_keep_their_copy_buttons`) and whose wrapper's utility classes are not its kind
//!   (`code_blocks_outweigh_their_class_words`), nor for its score alone a definition list of
//!   [`DL_MIN_BYTES`] or more without a negative class word (an API reference's entry, its
//!   signature and description: `reference_entries_in_definition_lists_are_kept`; shorter, when
//!   its descriptions are two paragraphs or more, not a label's value:
//!   `short_reference_entries_written_as_paragraphs_are_kept`, or one with little link text, a
//!   method's sentence: `a_reference_entry_of_one_paragraph_is_kept`), nor a
//!   list or form without a negative class word holding four paragraphs or more and little link
//!   text (a service page's features: `a_list_of_paragraphs_is_kept`), nor a list without a
//!   negative class word whose every item is a paragraph and that is a third link at most (a
//!   reference's notes and steps, written `li > p`: `a_short_list_of_paragraphs_is_kept`; steps
//!   that link the commands they name: `a_list_of_steps_naming_their_commands_is_kept`), nor a
//!   list without a negative class word of items shown as list items, 60 bytes each on average,
//!   with little link text (a reference's conditions, bare sentences: `a_list_of_sentences_is_kept`),
//!   nor for its link text a list without a negative class word whose items, two thirds of them
//!   or more, each say in 25 bytes of their own what their link is, nor a list inside one of
//!   its items, nor those lists' items as all-link blocks (a reference's guides, "Learn about
//!   datasets, the top-level container of tables": `a_list_of_links_each_described_is_kept`;
//!   a list of bare headlines is still cut), nor for its link text a list placed as three of its
//!   siblings or more are, each under a heading of one tag (or that heading and a short lead),
//!   nor its items: a buying guide's picks under each tool, a course's lessons under each topic,
//!   where a closing "Other posts you may enjoy" stands alone (`main_text/link_lists.rs`:
//!   `lists_of_links_under_each_heading_are_kept`).
//! - M5 with no candidate, the whole `<body>`'s visible text.
//! - M7 cover (`main_text/cover.rs`): the chosen part grows to the nearest ancestor holding 65 %
//!   of the page's prose (not teaser cards or blocks of teasers), when that adds two or more
//!   paragraphs: pages of many sections are read whole
//!   (`a_part_short_of_two_thirds_of_the_prose_widens`).
//! - M8 region (`main_text/region.rs`): the declared `main` (else the body) without navigation
//!   (DocBook's `navheader` and `navfooter` too: `a_docbook_pages_navigation_header_and_footer_are_cut`),
//!   banners, forms of controls, menus of short links (not a table of contents:
//!   `a_table_of_contents_is_not_a_menu`), cookie/share/newsletter/related parts, a
//!   thread's author cards, signatures and page links, a shop's customer reviews (by class word or heading), seller
//!   and returns parts, its disclaimers, and the
//!   sections its recommendations headings start, a carousel of other products' cards, its controls' labels, its tooltips' popups; its navigation and
//!   footer however much of it they hold.
//! - M9 choice (`is_article`): the article road (M1–M7) when its text is mostly prose (its
//!   paragraphs 55 % of it or more, a how-to's steps and headings between them, however long
//!   the comment thread below: `an_article_of_lists_above_a_long_comment_thread_is_the_main_text`;
//!   list items holding no block count as its paragraphs there, a post argued in numbered
//!   sentences: `a_post_argued_in_a_list_of_sentences_reads_as_its_article`,
//!   `an_article_above_a_thread_ten_times_longer_is_the_main_text`), unless
//!   its cleaning lost most of the part's prose, it is a short part of a big page, it is longer
//!   than the region, it is a part of short lines (a landing page's section), it is one post
//!   among alike siblings (a thread's longest post: `one_post_of_a_thread_reads_as_the_region`;
//!   deeper down, by a class word naming a post or message that its siblings share:
//!   `one_named_post_of_a_thread_reads_as_the_region`), it lies in a part whose class or id
//!   (or an ancestor's) names a forum, a thread or a discussion
//!   (`a_part_in_a_thread_reads_as_the_region`),
//!   it is a page's questions and answers (an accordion, a FAQ: one section of a service page),
//!   or it is a short part of a page that sells one product (its description, the region
//!   holding its price, options and specifications), or the page is undated (no `time`, byline,
//!   date or post's reading time, "6 min read": `a_reading_time_dates_the_page`; a publishing
//!   state, `status-publish`, or a testimonial's author is none:
//!   `a_publishing_state_or_a_testimonials_author_does_not_date_the_page`) and the
//!   region's text outside the part is mostly prose, the other sections of a landing page
//!   (`an_undated_page_of_prose_sections_reads_as_the_region`), or its text is a landing
//!   page's feature blurbs on an undated page (four lines of prose or more, none long, none
//!   right after another: `a_pages_feature_blurbs_read_as_the_region`), or the page is undated
//!   and opens with a grid of priced cards before the part (eight children or more each showing
//!   a price and a link: a shop's collection above its description,
//!   `a_description_below_a_grid_of_products_reads_as_the_region`); else the region
//!   (M8): products, listings, threads, service pages.
//! - M6 when cleaning leaves less than a paragraph (M1's 25 bytes) of the chosen part, the whole `<body>`'s visible text, uncut
//!   (`an_app_page_keeps_its_visible_text`).

use crate::observation::{Node, Tree};
use crate::render::{layout, Layout, Rendered};

mod cover;
mod link_lists;
mod page;
mod region;

pub(crate) use page::tidy_breaks;
use page::{
    at, hints, in_code, in_heading, is_ad_label, is_block, is_caption, is_heading,
    is_question_button, len, long_line_share, names_author_box, names_hidden_text, noise_by_kind,
    on_a_prose_line, set, survey, tag_weight, text_without, Page, LONG_LINE, LONG_LINE_SHARE,
    MIN_PARAGRAPH_BYTES,
};

/// How a short block that points elsewhere starts (M4; English only).
const PROMO_PREFIXES: &[&str] = &[
    "related:",
    "related post",
    "related article",
    "related stories",
    "read more",
    "more:",
    "see also:",
    "sign up",
    "subscribe",
    "click here",
    "you may also like",
    "also read",
    "don't miss",
    "recommended:",
    "filed under",
    "tags:",
    "share this",
    "like this story",
    "tell us what you think",
    "have a tip",
    "leave a reply",
    "leave a comment",
];
/// What a block that only heads the comments says (M4), compared on its whole trimmed text.
const COMMENT_HEADINGS: &[&str] = &[
    "comments",
    "comment",
    "0 comments",
    "no comments",
    "replies",
];

/// Whether a block's text is one of [`COMMENT_HEADINGS`], whatever its case. Only a text short
/// enough to be one is lowered (a character lowers to at least one byte and takes at most four):
/// every block asks, and on a page nested thousands deep each block holds the rest of the page.
fn is_comment_heading(text: &str) -> bool {
    let longest = COMMENT_HEADINGS.iter().map(|h| h.len()).max().unwrap_or(0);
    text.len() <= 4 * longest && COMMENT_HEADINGS.contains(&text.to_lowercase().as_str())
}

/// M1: the paragraphs, as (block, container, bytes, commas), short ones too (they count as
/// paragraphs for the cleaning rule but score nothing).
fn paragraphs(page: &Page<'_, '_, '_>) -> Vec<(usize, usize, usize, usize)> {
    let (tree, r) = (page.tree, page.r);
    let n = tree.obs.nodes.len();
    // The block each rendered node's inline content belongs to.
    let mut owner = vec![usize::MAX; n];
    // The open paragraph of each block: (bytes, commas).
    let mut open: Vec<(usize, usize)> = vec![(0, 0); n];
    let mut out = Vec::new();
    let close =
        |b: usize, open: &mut Vec<(usize, usize)>, out: &mut Vec<(usize, usize, usize, usize)>| {
            let (bytes, commas) = at(open, b);
            set(open, b, (0, 0));
            let node = tree.node(b);
            if bytes > 0 && !is_heading(node.tag()) && !matches!(node.tag(), "li" | "dt" | "th") {
                let container = if at(&page.has_block, b) {
                    Some(b)
                } else {
                    tree.parent_of(b)
                };
                if let Some(c) = container {
                    out.push((b, c, bytes, commas));
                }
            }
        };
    let mut blocks_seen: Vec<usize> = Vec::new();
    for &i in &r.order {
        let i = i as usize;
        let node = tree.node(i);
        let parent = tree.parent_of(i);
        let parent_owner = parent.map(|p| {
            if is_block(layout(tree.node(p))) {
                p
            } else {
                at(&owner, p)
            }
        });
        if let Some(o) = parent_owner {
            set(&mut owner, i, o);
        }
        if let Some(text) = &node.text {
            if let Some(b) = parent_owner.filter(|&b| b < n) {
                let t = text.trim();
                if !t.is_empty() && !is_one_word_repeated(t) {
                    let (bytes, commas) = at(&open, b);
                    let c = t.matches([',', '，', '、', '،']).count();
                    set(&mut open, b, (bytes + len(r, i), commas + c));
                }
            }
        } else if node.tag() == "br" {
            if let Some(b) = parent_owner.filter(|&b| b < n) {
                if at(&open, b).0 >= MIN_PARAGRAPH_BYTES {
                    close(b, &mut open, &mut out);
                }
            }
        } else if is_block(layout(node)) {
            blocks_seen.push(i);
        }
    }
    for b in blocks_seen {
        close(b, &mut open, &mut out);
    }
    out
}

/// Fewest words of a text that is one word repeated ([`is_one_word_repeated`]).
const REPEATED_WORDS: usize = 5;

/// M1: whether a text is one word said over and over, [`REPEATED_WORDS`] times or more ("word
/// word word …"): a script's probe that measures the page's fonts, no paragraph
/// (`a_font_probes_repeated_word_is_no_paragraph`).
fn is_one_word_repeated(t: &str) -> bool {
    let mut words = t.split_whitespace();
    let first = words.next();
    let mut n = 1;
    for w in words {
        if Some(w) != first {
            return false;
        }
        n += 1;
    }
    n >= REPEATED_WORDS
}

/// M2: the candidates' final scores; each element's paragraph count goes into `counts.p`
/// (a `br`-separated run counts as the paragraph it reads as).
#[allow(clippy::type_complexity)]
fn scores(page: &mut Page<'_, '_, '_>) -> (Vec<Option<f64>>, Vec<(usize, usize, usize, usize)>) {
    let tree = page.tree;
    let n = tree.obs.nodes.len();
    let mut score: Vec<Option<f64>> = vec![None; n];
    let found = paragraphs(page);
    for c in page.counts.iter_mut() {
        c.p = 0;
    }
    for &(block, ..) in &found {
        if let Some(c) = page.counts.get_mut(block) {
            c.p += 1;
        }
    }
    // Each element's count is its own and its children's: children after their parent in
    // document order, so backwards a child is done before its parent takes it (one pass, however
    // deep the page).
    for &i in page.r.order.iter().rev() {
        let i = i as usize;
        if let Some(parent) = tree.parent_of(i) {
            let p = at(&page.counts, i).p;
            if let Some(c) = page.counts.get_mut(parent) {
                c.p += p;
            }
        }
    }
    for &(block, container, bytes, commas) in &found {
        if bytes < MIN_PARAGRAPH_BYTES || at(&page.unlikely, block) {
            continue;
        }
        let s = 1.0 + commas as f64 + (bytes as f64 / 100.0).min(3.0);
        // A `display: contents` wrapper draws no box: its children are its parent's.
        let boxes = tree
            .ancestors(container)
            .filter(|&a| a == container || layout(tree.node(a)) != Layout::Contents);
        for (level, anc) in boxes.take(5).enumerate() {
            let Some(entry) = score.get_mut(anc) else {
                continue;
            };
            let entry = entry
                .get_or_insert_with(|| tag_weight(tree.node(anc).tag()) + page.class_weight(anc));
            *entry += match level {
                0 => s,
                1 => s / 2.0,
                l => s / (l as f64 * 3.0),
            };
        }
    }
    let fin = (0..n)
        .map(|i| at(&score, i).map(|s| s * (1.0 - page.density(i))))
        .collect();
    (fin, found)
}

/// The main text: the chosen road's text, and the ranges of the rendered text it was made of, in
/// document order (the Markdown of the main text renders the same ranges: `markdown.rs`).
pub(crate) fn main_text_and_ranges(tree: &Tree<'_>, r: &Rendered) -> (String, Vec<(usize, usize)>) {
    let roads = roads(tree, r);
    if is_article(&roads) {
        (roads.article, roads.article_ranges)
    } else {
        (roads.region, roads.region_ranges)
    }
}

/// M9: the page reads as one article when the article road's text is mostly prose (at least
/// [`PROSE_DENSITY`] of it, and [`MIN_PROSE`] bytes or more) and at least [`MIN_TEXT_SHARE`] of
/// the region's text without its comment threads (readers' comments ten times a story's length
/// are still the readers': `an_article_above_a_thread_ten_times_longer_is_the_main_text`), or when its prose ([`MIN_SHARED_PROSE`] bytes or more) is at least
/// [`PROSE_SHARE`] of the region's text and the article road's text at least [`TEXT_SHARE`] of
/// it; else its main text is the region (M8): a product, a listing, a thread of short posts, a
/// service page of short sections (`a_page_of_short_parts_reads_as_its_region`,
/// `an_article_reads_as_its_article`). Never when the article road's cleaning cut most of its
/// part's prose (its prose over [`LOST_PROSE`] times its text: the part was the wrong one,
/// `an_article_part_that_lost_its_prose_reads_as_the_region`), nor when a part under
/// [`SMALL_SHARE`] of the region holds under [`MIN_PROSE`] bytes of prose (a short text on a big
/// page of other parts, `a_short_part_of_a_big_page_reads_as_the_region`), nor when the article
/// road's text is longer than the region's (its part reached past the page's declared content
/// into the furniture around it: `an_article_part_longer_than_the_region_reads_as_the_region`;
/// the region weighed with the repeated blocks M8 read once: `the_regions_repeats_weigh_in_the_choice`),
/// nor when a part under [`LABELS_SHARE`] of the region has under [`LONG_LINE_SHARE`] of its text
/// in lines of prose (one section of a landing page, its headings and slogans:
/// `a_part_of_labels_reads_as_the_region`), nor when the part is one post of a thread
/// ([`one_post`], [`one_named_post`]) or lies in one ([`in_a_thread`]), nor when the part is a page's questions and answers
/// (its class or id, or its parent's, says accordion or FAQ: a service page's FAQ often holds
/// most of its prose, its hero, features and prices the rest:
/// `a_part_of_questions_and_answers_reads_as_the_region`), nor on a page that sells one product
/// when a part under [`DESCRIPTION_SHARE`] of the region holds under [`DESCRIPTION_BYTES`] (the
/// product's description: its name, price, options and specifications are beside it in the
/// region; a longer text beside a buy button is an article, a book's advertisement beside it:
/// `a_product_pages_description_is_not_its_main_text`), nor on an undated page when a grid of
/// priced cards comes before the part ([`grid_first`]).
fn is_article(roads: &Roads) -> bool {
    let region = (roads.region.len() + roads.region_repeats).max(1) as f64;
    let discussed = (roads.region.len() + roads.region_repeats)
        .saturating_sub(roads.comments)
        .max(1) as f64;
    let article = roads.article.len() as f64;
    let (total, chosen) = (roads.prose_total as f64, roads.prose_chosen as f64);
    let mostly_prose = (chosen >= PROSE_DENSITY * article.max(1.0)
        && roads.prose_total >= MIN_PROSE
        && article >= MIN_TEXT_SHARE * discussed)
        || (roads.prose_total >= MIN_SHARED_PROSE
            && total >= PROSE_SHARE * region
            && article >= TEXT_SHARE * region);
    let lost_prose = chosen > LOST_PROSE * article.max(1.0);
    let small = article < SMALL_SHARE * region && roads.prose_total < MIN_PROSE;
    let beyond = article > region;
    let lines_of_labels =
        long_line_share(&roads.article) < LONG_LINE_SHARE && article < LABELS_SHARE * region;
    let description = roads.sells_one
        && article < DESCRIPTION_SHARE * region
        && roads.article.len() < DESCRIPTION_BYTES;
    let blurbs = !roads.dated && feature_blurbs(&roads.article);
    let below_a_grid = !roads.dated && roads.grid_first;
    mostly_prose
        && !lost_prose
        && !small
        && !beyond
        && !lines_of_labels
        && !roads.in_thread
        && !roads.part_is_faq
        && !description
        && !undated_sections(roads, article, region)
        && !blurbs
        && !below_a_grid
}

/// Bytes of the region's text in the page's comment threads: the outermost shown parts whose
/// class or id names comments (`comments`, `comment-list`, `disqus_thread`), as much of them
/// as the region kept (`ranges`, the region's ranges of the rendered text, in order).
fn comment_bytes(page: &Page<'_, '_, '_>, ranges: &[(usize, usize)]) -> usize {
    let tree = page.tree;
    let mut total = 0;
    let mut inside_until = 0usize;
    for &i in &page.r.order {
        let i = i as usize;
        let Some((a, b)) = page.r.span(i) else {
            continue;
        };
        if a < inside_until || !tree.node(i).is_element() {
            continue;
        }
        let h = page.hints(i);
        if (h.contains("comment") || h.contains("disqus")) && !in_code(tree, i) {
            total += ranges
                .iter()
                .map(|&(x, y)| y.min(b).saturating_sub(x.max(a)))
                .sum::<usize>();
            inside_until = b;
        }
    }
    total
}

/// M9: whether a grid of priced cards comes before the article road's parts: an element, not
/// holding a part, with [`GRID_CARDS`] children or more that each show a price and hold a link
/// (a shop's products, each card its name, link and price). An undated page that opens with its
/// products and then says something of them (a category's description, its buying guide, its
/// questions) is a shop's collection, whose products are its text; a product page's grid of
/// other products comes after its description ([`is_article`]:
/// `a_description_below_a_grid_of_products_reads_as_the_region`).
fn grid_first(page: &Page<'_, '_, '_>, elements: &[usize], parts: &[usize]) -> bool {
    let tree = page.tree;
    let Some(first) = elements.iter().position(|e| parts.contains(e)) else {
        return false;
    };
    elements.iter().take(first).any(|&e| {
        let cards = tree
            .node(e)
            .kids
            .iter()
            .map(|&k| k as usize)
            .filter(|&k| tree.node(k).is_element())
            .filter(|&k| {
                let c = at(&page.counts, k);
                c.prices > 0 && c.anchors > 0
            })
            .count();
        cards >= GRID_CARDS && !parts.iter().any(|&p| tree.ancestors(p).any(|a| a == e))
    })
}

/// M9: whether the article road's text is a landing page's feature blurbs: at least
/// [`BLURB_LINES`] lines of prose ([`LONG_LINE`] characters or more), no two of them in a row
/// (each stands alone under its own heading or label) and none of [`BLURB_MAX`] characters or
/// more (a blurb is a sentence or two, a story's paragraphs run longer and follow each other):
/// one section of a service page, whose other sections are its text too
/// (`a_pages_feature_blurbs_read_as_the_region`). [`is_article`] asks it of undated pages only:
/// a firm's features above teasers of its posts are its text (`a_reading_time_dates_the_page`).
fn feature_blurbs(article: &str) -> bool {
    let (mut prose, mut run) = (0usize, 0usize);
    for line in article.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let chars = line.chars().count();
        if chars >= BLURB_MAX {
            return false;
        }
        if chars >= LONG_LINE {
            prose += 1;
            run += 1;
            if run > 1 {
                return false;
            }
        } else {
            run = 0;
        }
    }
    prose >= BLURB_LINES
}

/// M9: whether the page is an undated page of sections whose other sections the article road
/// left: nothing on it is dated (no `time` element, no byline or publication class word, no
/// date in the region's text: [`Roads::dated`]), the article road's text is under
/// [`UNDATED_SHARE`] of the region's, and at least [`REST_PROSE_SHARE`] of the region's text
/// outside it is in lines of prose (a service page's hero, features and testimonials written as
/// sentences, not a listing's short entries nor a menu's links). A news story is dated; a
/// landing page is not, and its sections are its text
/// (`an_undated_page_of_prose_sections_reads_as_the_region`).
fn undated_sections(roads: &Roads, article: f64, region: f64) -> bool {
    let (share, lines) = rest_long_share(&roads.article, &roads.region);
    !roads.dated && article < UNDATED_SHARE * region && share >= REST_PROSE_SHARE && lines >= 2
}

/// The share of the region's text outside the article road's lines (by line) that is in lines of
/// [`LONG_LINE`] characters or more, and how many such lines there are (one stray paragraph
/// after a story is no section: `an_undated_story_keeps_its_article_road`).
fn rest_long_share(article: &str, region: &str) -> (f64, usize) {
    let kept: std::collections::HashSet<&str> = article
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let (mut all, mut long, mut lines) = (0usize, 0usize, 0usize);
    for line in region.lines().map(str::trim) {
        if line.is_empty() || kept.contains(line) {
            continue;
        }
        all += line.len();
        if line.chars().count() >= LONG_LINE {
            long += line.len();
            lines += 1;
        }
    }
    if all == 0 {
        (0.0, 0)
    } else {
        (long as f64 / all as f64, lines)
    }
}

/// Class, id or itemprop words of a dated text's parts: its byline and publication date, or a
/// post's relative date ("3 days ago").
const DATE_WORDS: &[&str] = &[
    "byline",
    "author",
    "publish",
    "posted",
    "dateline",
    "entry-date",
    "post-date",
    "article-date",
    "timeago",
    "timestamp",
];

/// Whether the page is dated: a visible `time` element, a visible part whose class, id or
/// itemprop names a byline or a publication date ([`DATE_WORDS`]) or a comment (readers answer
/// a story, not a landing page: `an_undated_story_keeps_its_article_road`), or a date or a
/// post's reading time in the region's text ([`has_date`], [`has_reading_time`]).
fn is_dated(page: &Page<'_, '_, '_>, region: &str) -> bool {
    let tree = page.tree;
    page.r.order.iter().map(|&i| i as usize).any(|i| {
        let node = tree.node(i);
        node.is_element()
            && page.r.span(i).is_some()
            && (node.tag() == "time"
                || ["class", "id", "itemprop"].iter().any(|a| {
                    node.attr(a)
                        .is_some_and(|v| v.split_ascii_whitespace().any(names_a_date))
                })
                || node
                    .attr("id")
                    .is_some_and(|v| v.to_ascii_lowercase().contains("comments")))
    }) || has_date(region)
        || has_reading_time(region)
}

/// Whether a class, id or itemprop token names a byline or a publication date ([`DATE_WORDS`]):
/// not a publishing state, WordPress's `status-publish` on every page and product it serves and
/// a publishing server's bare `publish`, nor a customer's name under a testimonial
/// (`testimonial-author`): a landing page has those, undated
/// (`a_publishing_state_or_a_testimonials_author_does_not_date_the_page`).
fn names_a_date(token: &str) -> bool {
    let t = token.to_ascii_lowercase();
    DATE_WORDS.iter().any(|w| t.contains(w))
        && t != "publish"
        && !t.ends_with("status-publish")
        && !t.contains("testimonial")
}

/// Whether a text holds a post's reading time ("6 min read", "8-minute read"): the page's
/// posts, or its teasers of them, are dated writing.
fn has_reading_time(text: &str) -> bool {
    let words: Vec<String> = text
        .split(|c: char| c.is_whitespace() || c == '-')
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    words.windows(3).any(|w| match w {
        [n, unit, read] => {
            n.bytes().all(|b| b.is_ascii_digit())
                && matches!(unit.as_str(), "min" | "mins" | "minute" | "minutes")
                && read.starts_with("read")
        }
        _ => false,
    })
}

/// Whether a text holds a date written out: a month's name with a day and a year ("March 3,
/// 2024", "3 Mar 2024") or an ISO date ("2024-03-03").
fn has_date(text: &str) -> bool {
    const MONTHS: &[&str] = &[
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    let is_month = |w: &str| {
        let w = w.trim_end_matches(['.', ',']).to_ascii_lowercase();
        w.len() >= 3 && MONTHS.iter().any(|m| m.starts_with(&w))
    };
    let is_day = |w: &str| {
        let w = w.trim_end_matches(',');
        (1..=2).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_digit())
    };
    let is_year = |w: &str| {
        let w = w.trim_end_matches([',', '.']);
        w.len() == 4
            && (w.starts_with("19") || w.starts_with("20"))
            && w.bytes().all(|b| b.is_ascii_digit())
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    let written = words.windows(3).any(|w| match w {
        [a, b, c] => is_year(c) && ((is_month(a) && is_day(b)) || (is_day(a) && is_month(b))),
        _ => false,
    });
    let iso = |w: &str| {
        let digits = |r: std::ops::Range<usize>| {
            w.get(r)
                .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
        };
        let sep = w.get(4..5).filter(|s| matches!(*s, "-" | "/"));
        w.get(..4).is_some_and(is_year)
            && sep.is_some()
            && digits(5..7)
            && w.get(7..8) == sep
            && digits(8..10)
    };
    written || words.iter().any(|w| iso(w))
}

/// M9: whether the article road's part is one post of a thread: the part, or one of its
/// [`POST_LEVELS`] nearest ancestors, has [`POST_MIN_ALIKE`] or more visible siblings of its tag
/// and class (a class it has) each holding a paragraph's worth of text, and together
/// [`POST_SHARE`] of its text or more. The best-scoring post is then read alone, and the thread's
/// other posts are the page's main text too (`one_post_of_a_thread_reads_as_the_region`).
fn one_post(page: &Page<'_, '_, '_>, part: usize) -> bool {
    let tree = page.tree;
    std::iter::once(part)
        .chain(tree.ancestors(part))
        .take(POST_LEVELS + 1)
        .take_while(|&a| !matches!(tree.node(a).tag(), "body" | "html" | "main"))
        .any(|a| {
            let node = tree.node(a);
            let class = node.attr("class").unwrap_or("").trim();
            let Some(parent) = tree.parent_of(a) else {
                return false;
            };
            if class.is_empty() {
                return false;
            }
            has_alike_posts(page, a, parent, |o| {
                o.tag() == node.tag() && o.attr("class").map(str::trim) == Some(class)
            })
        })
}

/// Whether `a` has [`POST_MIN_ALIKE`] or more visible siblings under `parent` that `alike` says
/// are of its kind, each holding a paragraph's worth of text and together [`POST_SHARE`] of its
/// text or more: the other posts of a thread ([`one_post`], [`one_named_post`]).
fn has_alike_posts(
    page: &Page<'_, '_, '_>,
    a: usize,
    parent: usize,
    alike: impl Fn(&Node) -> bool,
) -> bool {
    let (tree, r) = (page.tree, page.r);
    let others: Vec<usize> = tree
        .node(parent)
        .kids
        .iter()
        .map(|&k| k as usize)
        .filter(|&k| k != a)
        .filter(|&k| tree.node(k).is_element() && alike(tree.node(k)))
        .filter(|&k| len(r, k) >= MIN_PARAGRAPH_BYTES)
        .collect();
    let bytes: usize = others.iter().map(|&k| len(r, k)).sum();
    others.len() >= POST_MIN_ALIKE && bytes as f64 >= POST_SHARE * len(r, a) as f64
}

/// M9: whether the article road's part lies in one post of a thread named so: the part or one
/// of its [`NAMED_POST_LEVELS`] nearest ancestors has a class word that names a post or a
/// message (`post`, `message`, `message--post`, `postbody`, …: starting so) and
/// [`POST_MIN_ALIKE`] or more visible siblings of its tag with that word, each holding a
/// paragraph's worth of text and together [`POST_SHARE`] of its text or more. Deeper than
/// [`one_post`] looks, and alike by that word alone: a forum's post wraps its text in many
/// levels, and its class says its state too (the thread's starter, unread):
/// `one_named_post_of_a_thread_reads_as_the_region`.
fn one_named_post(page: &Page<'_, '_, '_>, part: usize) -> bool {
    let tree = page.tree;
    let post_word = |i: usize| -> Option<String> {
        tree.node(i)
            .attr("class")?
            .split_ascii_whitespace()
            .map(str::to_ascii_lowercase)
            .find(|w| w.starts_with("post") || w.starts_with("message"))
    };
    std::iter::once(part)
        .chain(tree.ancestors(part))
        .take(NAMED_POST_LEVELS + 1)
        .take_while(|&a| !matches!(tree.node(a).tag(), "body" | "html" | "main"))
        .any(|a| {
            let (Some(word), Some(parent)) = (post_word(a), tree.parent_of(a)) else {
                return false;
            };
            let tag = tree.node(a).tag();
            has_alike_posts(page, a, parent, |o| {
                o.tag() == tag
                    && o.attr("class").is_some_and(|c| {
                        c.split_ascii_whitespace()
                            .any(|w| w.eq_ignore_ascii_case(&word))
                    })
            })
        })
}

/// M9: whether a part lies in a forum's thread by its page's own words: its class or id, or an
/// ancestor's up to the root, names a forum, a thread or a discussion (`node-forum`,
/// `template-thread_view`, `thread-body`, `Discussion`): the thread's posts are the page's main text, not its longest post
/// (`a_part_in_a_thread_reads_as_the_region`).
fn in_a_thread(tree: &Tree<'_>, part: usize) -> bool {
    std::iter::once(part).chain(tree.ancestors(part)).any(|a| {
        let h = hints(tree, a);
        THREAD_WORDS.iter().any(|w| h.contains(w))
    })
}

/// Class or id words (matched as substrings) that name a forum's thread ([`in_a_thread`]).
const THREAD_WORDS: &[&str] = &["forum", "thread", "discussion"];

/// Whether a part is a page's questions and answers: its class or id, or its parent's, says
/// accordion or FAQ.
fn is_faq(tree: &Tree<'_>, i: usize) -> bool {
    std::iter::once(i).chain(tree.parent_of(i)).any(|k| {
        let h = hints(tree, k);
        h.contains("accordion") || h.contains("faq")
    })
}

/// M9's figures.
const PROSE_DENSITY: f64 = 0.55;
const MIN_PROSE: usize = 1000;
const MIN_TEXT_SHARE: f64 = 0.1;
const PROSE_SHARE: f64 = 0.2;
const MIN_SHARED_PROSE: usize = 200;
const TEXT_SHARE: f64 = 0.2;
const LOST_PROSE: f64 = 3.0;
const SMALL_SHARE: f64 = 0.3;
const LABELS_SHARE: f64 = 0.7;
const POST_LEVELS: usize = 3;
const POST_MIN_ALIKE: usize = 2;
const POST_SHARE: f64 = 0.3;
const DESCRIPTION_SHARE: f64 = 0.5;
const DESCRIPTION_BYTES: usize = 4000;
const UNDATED_SHARE: f64 = 0.9;
const REST_PROSE_SHARE: f64 = 0.4;
const NAMED_POST_LEVELS: usize = 8;
const BLURB_LINES: usize = 4;
const BLURB_MAX: usize = 300;
const GRID_CARDS: usize = 8;

/// The main text by each road, and what the choice between them reads.
pub(crate) struct Roads {
    /// M1–M7: the best-scoring part, widened to cover the prose, cleaned.
    pub article: String,
    /// The rendered text's ranges `article` was made of.
    pub article_ranges: Vec<(usize, usize)>,
    /// M8: the declared region, boilerplate cut.
    pub region: String,
    /// The rendered text's ranges `region` was made of.
    pub region_ranges: Vec<(usize, usize)>,
    /// Bytes of repeated blocks M8 cut from the region: M9 weighs the region with them.
    pub region_repeats: usize,
    /// Bytes of the region's text in the page's comment threads ([`comment_bytes`]): M9
    /// weighs the article road against the region without them.
    pub comments: usize,
    /// Bytes of prose (M7, with the list items written as paragraphs: `Prose::with_items`) on
    /// the page, and inside the article road's part.
    pub prose_total: usize,
    pub prose_chosen: usize,
    /// The article road's part is one post of a thread or lies in one ([`one_post`],
    /// [`one_named_post`], [`in_a_thread`]).
    pub in_thread: bool,
    /// Whether the article road's part is a page's questions and answers (an accordion).
    pub part_is_faq: bool,
    /// The page sells one product (M8's buy controls).
    pub sells_one: bool,
    /// The page is dated ([`is_dated`]).
    pub dated: bool,
    /// A grid of priced cards comes before the article road's parts ([`grid_first`]).
    pub grid_first: bool,
}

pub(crate) fn roads(tree: &Tree<'_>, r: &Rendered) -> Roads {
    let mut page = survey(tree, r);
    let buy = region::BuyControls::of(&page);
    let shop = buy.sells();
    if shop {
        region::shop_furniture_is_unlikely(&mut page);
    }
    let (fin, found) = scores(&mut page);
    let elements: Vec<usize> = r
        .order
        .iter()
        .map(|&i| i as usize)
        .filter(|&i| tree.node(i).is_element())
        .collect();
    let best = elements
        .iter()
        .copied()
        .filter(|&i| !matches!(tree.node(i).tag(), "body" | "html"))
        .filter_map(|i| at(&fin, i).map(|s| (i, s)))
        .max_by(|a, b| a.1.total_cmp(&b.1));
    let body = elements
        .iter()
        .copied()
        .find(|&i| tree.node(i).tag() == "body");
    let prose = cover::prose(&page, &found);
    let recs = region::recommendations(&page, shop);
    let (region, region_ranges, region_repeats) = body
        .map(|b| region::text(&page, region::root(&page, b), buy, &recs))
        .unwrap_or_default();
    let parts: Vec<usize> = match best {
        Some(mut top) => {
            // A parent that scores at least as well holds more of the same content.
            while let Some(p) = box_parent(tree, top.0) {
                if matches!(tree.node(p).tag(), "body" | "html") {
                    break;
                }
                match at(&fin, p) {
                    Some(s) if s >= top.1 => top = (p, s),
                    _ => break,
                }
            }
            let top = common_home(&page, &fin, top);
            let wide = body.map_or(top.0, |b| cover::widen(&page, &prose, top.0, b));
            if wide == top.0 {
                with_siblings(&page, &fin, top, &words(&tree.obs.title))
            } else {
                vec![wide]
            }
        }
        None => elements
            .iter()
            .copied()
            .find(|&i| tree.node(i).tag() == "body")
            .into_iter()
            .collect(),
    };
    let parts = with_lead(&page, &found, parts);
    let mut text = String::new();
    let mut ranges = Vec::new();
    for &top in &parts {
        text.push_str(&cleaned(&page, &fin, top, shop, &recs, &mut ranges));
        text.push_str("\n\n");
    }
    let text = tidy_breaks(&text);
    let prose_total = body.map_or(0, |b| at(&prose.with_items, b));
    let prose_chosen = parts.iter().map(|&p| at(&prose.with_items, p)).sum();
    let in_thread = matches!(parts[..], [part] if one_post(&page, part) || one_named_post(&page, part))
        || parts.iter().any(|&p| in_a_thread(tree, p));
    let part_is_faq = parts.iter().any(|&p| is_faq(tree, p));
    let dated = is_dated(&page, &region);
    let comments = comment_bytes(&page, &region_ranges);
    let grid_first = grid_first(&page, &elements, &parts);
    let done = |article: String, article_ranges: Vec<(usize, usize)>| Roads {
        article,
        article_ranges,
        region: region.clone(),
        region_ranges: region_ranges.clone(),
        region_repeats,
        comments,
        prose_total,
        prose_chosen,
        in_thread,
        part_is_faq,
        sells_one: buy.sells_one(),
        dated,
        grid_first,
    };
    if text.trim().len() >= MIN_PARAGRAPH_BYTES {
        return done(text, ranges);
    }
    // M6: cleaning left less than a paragraph (an app's page of short labels, lists and controls, where every
    // part looks like noise to an article's rules): the page's whole visible text, uncut, so the
    // agent still gets what the person sees.
    match body.and_then(|body| r.span(body)) {
        Some((a, b)) => done(tidy_breaks(r.slice(a, b)), vec![(a, b)]),
        None => done(String::new(), Vec::new()),
    }
}

/// M2: when other candidates score nearly as well as the winner (a body split into chunks),
/// the nearest ancestor that holds them all wins instead.
fn common_home(page: &Page<'_, '_, '_>, fin: &[Option<f64>], top: (usize, f64)) -> (usize, f64) {
    let tree = page.tree;
    let top_chain: Vec<usize> = tree.ancestors(top.0).collect();
    // Position of each element of the top's chain (0: the top), and the top's own subtree.
    let chain_at: std::collections::HashMap<usize, usize> =
        top_chain.iter().enumerate().map(|(k, &a)| (a, k)).collect();
    let mut below_top = vec![false; tree.obs.nodes.len()];
    let mut stack = vec![top.0];
    while let Some(n) = stack.pop() {
        for &k in &tree.node(n).kids {
            let k = k as usize;
            if tree.parent_of(k) == Some(n) && !at(&below_top, k) {
                set(&mut below_top, k, true);
                stack.push(k);
            }
        }
    }
    let alternatives: Vec<usize> = page
        .r
        .order
        .iter()
        .map(|&i| i as usize)
        .filter(|&i| at(fin, i).is_some_and(|s| s >= 0.75 * top.1))
        .filter(|&i| 2 * len(page.r, i) >= len(page.r, top.0))
        .filter(|&i| !chain_at.contains_key(&i) && !at(&below_top, i))
        .collect();
    if alternatives.is_empty() || alternatives.len() > 4 {
        return top;
    }
    // The chain's nearest element above the top holding every alternative: at or above the
    // highest place where one of them joins the chain.
    let mut highest = 1;
    for &a in &alternatives {
        match tree.ancestors(a).find_map(|x| chain_at.get(&x)) {
            Some(&k) => highest = highest.max(k),
            None => return top,
        }
    }
    for &anc in top_chain.iter().skip(1) {
        if matches!(tree.node(anc).tag(), "body" | "html") {
            break;
        }
        if chain_at.get(&anc).is_some_and(|&k| k >= highest) {
            return (anc, at(fin, anc).unwrap_or(top.1));
        }
    }
    top
}

/// M3: the document's lead: the nearest sibling before the first part holding paragraphs (past
/// unlikely ones: a table of contents), when it holds the page's title (its first visible `h1`)
/// and is mostly prose (at least [`LEAD_PROSE`] of its text in [`LEAD_PARAGRAPHS`] paragraphs or
/// more, short ones with a link too), joins the parts (a reference page's header, its title and
/// the paragraphs introducing it, beside the block of its sections:
/// `a_documents_lead_beside_its_sections_is_kept`).
fn with_lead(
    page: &Page<'_, '_, '_>,
    found: &[(usize, usize, usize, usize)],
    parts: Vec<usize>,
) -> Vec<usize> {
    let (tree, r) = (page.tree, page.r);
    let Some(&first) = parts.first() else {
        return parts;
    };
    let Some(parent) = tree.parent_of(first) else {
        return parts;
    };
    let title = r
        .order
        .iter()
        .map(|&i| i as usize)
        .find(|&i| tree.node(i).tag() == "h1" && r.span(i).is_some());
    // The nearest sibling before the part with prose: only asides of none (a table of
    // contents) between them.
    let Some(lead) = tree
        .node(parent)
        .kids
        .iter()
        .map(|&k| k as usize)
        .take_while(|&k| k != first)
        .filter(|&k| {
            tree.node(k).is_element() && at(&page.counts, k).p > 0 && !at(&page.unlikely, k)
        })
        .last()
    else {
        return parts;
    };
    let holds_title = title.is_some_and(|h| tree.ancestors(h).any(|a| a == lead));
    // Its paragraphs, short ones with a link too (a reference's run of them reads as cards to M7).
    let (bytes, count) = found
        .iter()
        .filter(|&&(b, _, bytes, _)| {
            bytes >= MIN_PARAGRAPH_BYTES
                && page.density(b) <= 0.5
                && tree.ancestors(b).any(|a| a == lead)
        })
        .fold((0, 0), |(s, c), &(_, _, bytes, _)| (s + bytes, c + 1));
    let mostly_prose = bytes as f64 >= LEAD_PROSE * len(r, lead) as f64 && count >= LEAD_PARAGRAPHS;
    if holds_title && mostly_prose && !at(&page.unlikely, lead) {
        std::iter::once(lead).chain(parts).collect()
    } else {
        parts
    }
}

/// The least share of a lead's text in prose, and its fewest paragraphs.
const LEAD_PROSE: f64 = 0.5;
const LEAD_PARAGRAPHS: usize = 3;

/// M3: the winner and the siblings that belong with it, in document order.
fn with_siblings(
    page: &Page<'_, '_, '_>,
    fin: &[Option<f64>],
    top: (usize, f64),
    title: &str,
) -> Vec<usize> {
    let tree = page.tree;
    let Some(parent) = box_parent(tree, top.0) else {
        return vec![top.0];
    };
    let threshold = (top.1 * 0.2).max(10.0);
    box_kids(tree, parent)
        .into_iter()
        .filter(|&k| {
            if k == top.0 {
                return true;
            }
            let node = tree.node(k);
            if !node.is_element()
                || page.r.span(k).is_none()
                || page.density(k) > 0.5
                || at(&page.unlikely, k)
                || is_noise(page, fin, k, title)
            {
                return false;
            }
            // Alike (the same class as the winner) from a fifth of its score, else from half.
            let alike = node.attr("class").is_some()
                && node.attr("class") == tree.node(top.0).attr("class");
            let bar = if alike {
                threshold
            } else {
                threshold.max(top.1 * 0.5)
            };
            if at(fin, k).is_some_and(|s| s >= bar) {
                return true;
            }
            node.tag() == "p" && len(page.r, k) > 80 && page.density(k) < 0.25
        })
        .collect()
}

/// The nearest ancestor that draws a box: a `display: contents` wrapper draws none, and its
/// children are its parent's (M3: a page that wraps each of its sections in one).
fn box_parent(tree: &Tree<'_>, i: usize) -> Option<usize> {
    tree.ancestors(i)
        .skip(1)
        .find(|&a| layout(tree.node(a)) != Layout::Contents)
}

/// The children of `parent` as its box has them: a `display: contents` child's own children in
/// its place ([`box_parent`]), in document order. Iterative: a page can nest wrappers deeply.
fn box_kids(tree: &Tree<'_>, parent: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut stack: Vec<usize> = tree
        .node(parent)
        .kids
        .iter()
        .rev()
        .map(|&k| k as usize)
        .collect();
    while let Some(k) = stack.pop() {
        let node = tree.node(k);
        if node.is_element() && layout(node) == Layout::Contents {
            stack.extend(node.kids.iter().rev().map(|&c| c as usize));
        } else {
            out.push(k);
        }
    }
    out
}

/// Normalized words of a text, for comparing a heading with the title.
fn words(s: &str) -> String {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Most bytes of a box about the writer that M4 cuts ([`names_author_box`]): a bigger one holds
/// more than a bio.
const AUTHOR_BOX_MAX_BYTES: usize = 2000;

/// M4: whether an element inside the chosen part is noise.
fn is_noise(page: &Page<'_, '_, '_>, fin: &[Option<f64>], i: usize, title: &str) -> bool {
    let tree = page.tree;
    let node = tree.node(i);
    let tag = node.tag();
    if (noise_by_kind(tree, i) && !is_question_button(page, i))
        || (page.strongly_negative(i)
            && (names_hidden_text(page.hints(i)) || !on_a_prose_line(page, i)))
    {
        return true;
    }
    if is_part_footer(tree, i) {
        return true;
    }
    // A box about the writer (their photo, name and a few lines of bio) closes many posts: the
    // site's, not the article's (`a_box_about_the_writer_is_cut_from_the_article`).
    if is_block(layout(node))
        && len(page.r, i) <= AUTHOR_BOX_MAX_BYTES
        && page.hints(i).split_ascii_whitespace().any(names_author_box)
    {
        return true;
    }
    if is_caption(page, i) {
        return true;
    }
    let h = page.hints(i);
    // A thread's card of who wrote a post and their standing, their signature.
    if region::names_thread_furniture(h)
        || h.contains("signature")
        || region::is_thread_label(page, i)
    {
        return true;
    }
    let (a, b) = page.r.span(i).unwrap_or((0, 0));
    let text = page.r.slice(a, b).trim();
    // A short block that is all link: a promotion of another page ("READ MORE ON …").
    // Not a definition term nor a table's cell: a reference's entry names itself by a link to
    // its own page.
    if !is_heading(tag)
        && !matches!(tag, "dt" | "td" | "th")
        && is_block(layout(node))
        && text.len() < 160
        && page.density(i) > 0.9
        && !is_described_link_list_part(page, i)
        && !link_lists::in_headed_link_list(page, i)
    {
        return true;
    }
    if is_block(layout(node)) && (is_comment_heading(text) || is_ad_label(text)) {
        return true;
    }
    // A short block that says it is a pointer elsewhere.
    if text.len() < 200
        && is_block(layout(node))
        && {
            let low = text.to_lowercase();
            PROMO_PREFIXES.iter().any(|p| low.starts_with(p))
        }
        && !is_pointing_sentence(page, i, text)
    {
        return true;
    }
    if is_heading(tag) {
        if page.class_weight(i) < 0.0 {
            return true;
        }
        // The heading that repeats the page's title is the title, not the text.
        if matches!(tag, "h1" | "h2") && !title.is_empty() {
            let h = words(page.r.slice(
                page.r.span(i).map_or(0, |s| s.0),
                page.r.span(i).map_or(0, |s| s.1),
            ));
            let similar = (title.contains(&h) && 2 * h.len() >= title.len()) || h.contains(title);
            if !h.is_empty() && similar {
                return true;
            }
        }
        return false;
    }
    if !matches!(
        tag,
        "div" | "section" | "ul" | "ol" | "table" | "header" | "dl" | "form" | "fieldset"
    ) {
        return false;
    }
    // The conditional rule.
    let c = at(&page.counts, i);
    let text = len(page.r, i);
    // A code block (most of its text in `pre`) is content, its copy button and icons too.
    if 2 * c.pre_text >= text && text > 0 {
        return false;
    }
    // A line of a code block written as a block (a code editor's `div.cm-line` in its `pre`)
    // is the code's, however short.
    if in_code(tree, i) {
        return false;
    }
    // A block inside a heading is the heading's (a signature's `where` clause on its own line):
    // `a_block_inside_a_heading_is_kept`.
    if in_heading(tree, i) {
        return false;
    }
    let weight = page.class_weight(i);
    if weight + at(fin, i).unwrap_or(0.0) < 0.0
        && !(tag == "dl"
            && weight >= 0.0
            && (text >= DL_MIN_BYTES || c.p >= 2 || (c.p == 1 && page.density(i) < 0.25)))
        && !(c.p >= 4 && page.density(i) < 0.2 && weight >= 0.0)
        && !(matches!(tag, "ul" | "ol")
            && c.li > 0
            && c.p >= c.li
            && page.density(i) < 0.35
            && weight >= 0.0)
        && !is_list_of_sentences(page, i, weight)
    {
        return true;
    }
    let density = page.density(i);
    let annotated = is_list_of_annotated_links(page, i);
    if ((weight < 25.0 && density > 0.5) || density > 0.7)
        && !annotated
        && !link_lists::in_headed_link_list(page, i)
    {
        return true;
    }
    if c.commas >= 10 {
        return false;
    }
    let is_list = matches!(tag, "ul" | "ol") || (text > 0 && c.li_text as f64 / text as f64 > 0.9);
    let p = c.p as f64;
    (c.img > 1 && p / (c.img as f64) < 0.5)
        || (!is_list && c.li > c.p + 1 && density > 0.3)
        || ((c.inputs - c.buttons) as f64 > (p / 3.0).floor() && c.inputs > c.buttons)
        || (!is_list
            && text < MIN_PARAGRAPH_BYTES
            && (c.img == 0 || c.img > 2)
            && !wraps_heading(tree, i)
            && !is_short_sentence(page, i)
            && c.p < 2)
        || (c.embeds == 1 && text < 75)
        || c.embeds > 1
}

/// How a sentence of the text that says where to read on starts (of [`PROMO_PREFIXES`]: a
/// pointer's verb, not a label's "Related:" nor a call to sign up).
const POINTING_VERBS: &[&str] = &["read more", "click here"];

/// Whether a paragraph that starts by pointing elsewhere is a sentence of the text that names
/// where to read on: a `p` starting with one of [`POINTING_VERBS`] ("Read more about aliases in
/// the dedicated section."), ending as a sentence does, its link under half of it
/// (`a_sentence_pointing_to_a_section_is_kept`).
fn is_pointing_sentence(page: &Page<'_, '_, '_>, i: usize, text: &str) -> bool {
    let low = text.to_lowercase();
    page.tree.node(i).tag() == "p"
        && POINTING_VERBS.iter().any(|p| low.starts_with(p))
        && text.ends_with('.')
        && page.density(i) > 0.0
        && page.density(i) < 0.5
}

/// Whether a list is one of links each told about: a `ul` or `ol` without a negative class word,
/// of two items or more, its items saying in their own words, beyond their links, what the link is
/// ([`ANNOTATION_BYTES`] or more; two thirds of the items at least), or a list inside an item of
/// such a list: a reference's "Learn about datasets, BigQuery's top-level container
/// of tables and views." (`a_list_of_links_each_described_is_kept`), not a list of headlines.
fn is_list_of_annotated_links(page: &Page<'_, '_, '_>, i: usize) -> bool {
    if !matches!(page.tree.node(i).tag(), "ul" | "ol") || page.class_weight(i) < 0.0 {
        return false;
    }
    // The list itself, or one of the lists it is nested in (item in item, a few levels up).
    let mut list = i;
    for _ in 0..=NESTED_LIST_LEVELS {
        if describes_its_links(page, list) {
            return true;
        }
        match page
            .tree
            .parent_of(list)
            .filter(|&li| page.tree.node(li).tag() == "li")
            .and_then(|li| page.tree.parent_of(li))
        {
            Some(up) if matches!(page.tree.node(up).tag(), "ul" | "ol") => list = up,
            _ => return false,
        }
    }
    false
}

/// Whether a list's own items, two thirds of them at least (and two or more), say in
/// [`ANNOTATION_BYTES`] of their own what their links are, in a list without a negative class
/// word ([`is_list_of_annotated_links`]).
fn describes_its_links(page: &Page<'_, '_, '_>, list: usize) -> bool {
    if page.class_weight(list) < 0.0 {
        return false;
    }
    let items = page
        .tree
        .node(list)
        .kids
        .iter()
        .map(|&k| k as usize)
        .filter(|&k| page.tree.node(k).tag() == "li");
    let (mut all, mut told) = (0, 0);
    for k in items {
        all += 1;
        if len(page.r, k) as f64 * (1.0 - page.density(k)) >= ANNOTATION_BYTES {
            told += 1;
        }
    }
    all >= 2 && 3 * told >= 2 * all
}

/// How many lists up a nested list looks for one whose links are described
/// ([`is_list_of_annotated_links`]).
const NESTED_LIST_LEVELS: usize = 3;

/// Whether a block is a list of links each described, or an item of one
/// ([`is_list_of_annotated_links`]): its links are the list's, not a promotion.
fn is_described_link_list_part(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let list = match page.tree.node(i).tag() {
        "li" => page.tree.parent_of(i),
        _ => Some(i),
    };
    list.is_some_and(|list| is_list_of_annotated_links(page, list))
}

/// How much of a list item's own text, beyond its links, tells what its link is
/// ([`is_list_of_annotated_links`]).
const ANNOTATION_BYTES: f64 = 25.0;

/// Whether a list is one of sentences: a `ul` or `ol` without a negative class word, of two
/// items or more, [`SENTENCE_ITEM_BYTES`] an item or more on average, with little link text, its
/// items shown as list items (not laid out as a row of cards: a shop's promises) (a reference's
/// conditions or cases, written as bare list items: `a_list_of_sentences_is_kept`).
fn is_list_of_sentences(page: &Page<'_, '_, '_>, i: usize, weight: f64) -> bool {
    let c = at(&page.counts, i);
    matches!(page.tree.node(i).tag(), "ul" | "ol")
        && weight >= 0.0
        && c.li >= 2
        && c.li_text >= SENTENCE_ITEM_BYTES * c.li
        && page.density(i) < 0.2
        && page.tree.node(i).kids.iter().all(|&k| {
            let k = page.tree.node(k as usize);
            k.tag() != "li"
                || k.style
                    .as_ref()
                    .and_then(|s| s.display.as_deref())
                    .is_none_or(|d| d == "list-item")
        })
}

/// The least average bytes of a list of sentences' items.
const SENTENCE_ITEM_BYTES: usize = 60;

/// Whether an element is the footer of a part: a class token naming one (`article-footer`,
/// `post_footer`), whatever positive word it holds: the part's feedback form, edit link and
/// last-modified date (`a_parts_footer_is_cut`).
fn is_part_footer(tree: &Tree<'_>, i: usize) -> bool {
    tree.node(i)
        .attr("class")
        .unwrap_or("")
        .split_whitespace()
        .any(|t| {
            let t = t.to_ascii_lowercase();
            t.len() > "footer".len() + 1 && (t.ends_with("-footer") || t.ends_with("_footer"))
        })
}

/// Whether a block wraps a heading (one of its children is `h1`–`h6`): a section's heading
/// with its anchor or edit link (MediaWiki's `div.mw-heading`), short but no noise.
fn wraps_heading(tree: &Tree<'_>, i: usize) -> bool {
    tree.node(i)
        .kids
        .iter()
        .any(|&k| is_heading(tree.node(k as usize).tag()))
}

/// Whether a short block is one sentence of the text: three words or more, a capital first and
/// a full stop last, no link (a reference's version note, "Added in version 3.2.").
fn is_short_sentence(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let (a, b) = page.r.span(i).unwrap_or((0, 0));
    let text = page.r.slice(a, b).trim();
    at(&page.counts, i).links == 0
        && text.split_whitespace().count() >= 3
        && text.starts_with(|c: char| c.is_uppercase())
        && text.ends_with('.')
}

/// The least text of a definition list that is a reference entry, not a label and its value.
const DL_MIN_BYTES: usize = 100;

/// The text of `top` with its noise cut out; the ranges kept go to `kept`. `recs`: the page's
/// recommendations sections ([`region::recommendations`]), cut when under half of the part.
fn cleaned(
    page: &Page<'_, '_, '_>,
    fin: &[Option<f64>],
    top: usize,
    shop: bool,
    recs: &[bool],
    kept: &mut Vec<(usize, usize)>,
) -> String {
    let title = words(&page.tree.obs.title);
    let (top_start, top_end) = page.r.span(top).unwrap_or((0, 0));
    let mut quoted = region::Quoted::new(top_start);
    let (text, ranges) = text_without(page, top, |i, span| {
        let cut = is_noise(page, fin, i, &title)
            || (at(recs, i) && 2 * (span.1 - span.0) < top_end - top_start)
            || (shop && (region::is_shop_furniture(page, i) || region::is_small_print(page, i)))
            || quoted.repeats(page, i, span);
        if cut {
            quoted.cuts.push(span);
        }
        cut
    });
    kept.extend(ranges);
    text
}

#[cfg(test)]
mod choice_tests {
    //! M9's four vetoes, over the figures the choice reads (the roads' texts stand in by length,
    //! or by a text repeated where its lines matter).
    use super::{is_article, Roads};

    fn roads(article: usize, region: usize, prose_total: usize, prose_chosen: usize) -> Roads {
        Roads {
            article: "a".repeat(article),
            article_ranges: Vec::new(),
            region: "r".repeat(region),
            region_ranges: Vec::new(),
            region_repeats: 0,
            comments: 0,
            prose_total,
            prose_chosen,
            in_thread: false,
            part_is_faq: false,
            sells_one: false,
            dated: true,
            grid_first: false,
        }
    }

    #[test]
    fn an_article_part_that_lost_its_prose_reads_as_the_region() {
        // Mostly prose either way; the second part's cleaning kept a third of its prose.
        assert!(is_article(&roads(3000, 5000, 4000, 2900)));
        assert!(!is_article(&roads(1000, 5000, 4000, 3500)));
    }

    #[test]
    fn a_part_of_labels_reads_as_the_region() {
        let prose =
            "A sentence of an article that goes on, as prose does, past eighty characters.\n";
        let labels = "Projects\nChat\nSave time. All humans working together.\n";
        let with = |text: &str, region: usize| Roads {
            article: text.repeat(30),
            ..roads(0, region, 2500, 2000)
        };
        assert!(is_article(&with(prose, 3000)));
        assert!(!is_article(&with(labels, 3000)));
        // Most of the region: the labels are the page.
        assert!(is_article(&with(labels, 1900)));
    }

    #[test]
    fn an_article_part_longer_than_the_region_reads_as_the_region() {
        assert!(is_article(&roads(2000, 2100, 2500, 1900)));
        assert!(!is_article(&roads(2300, 2100, 2500, 1900)));
    }

    #[test]
    fn the_regions_repeats_weigh_in_the_choice() {
        // The region read its cloned slides once: the article road is not longer than the page.
        assert!(!is_article(&roads(2300, 2100, 2500, 1900)));
        let with_repeats = Roads {
            region_repeats: 400,
            ..roads(2300, 2100, 2500, 1900)
        };
        assert!(is_article(&with_repeats));
    }

    #[test]
    fn a_product_pages_description_is_not_its_main_text() {
        let shop = |mut r: Roads| {
            r.sells_one = true;
            r
        };
        assert!(is_article(&roads(2000, 5000, 2500, 1900)));
        assert!(!is_article(&shop(roads(2000, 5000, 2500, 1900))));
        // Most of the region, or a long text: the page's article beside a buy button.
        assert!(is_article(&shop(roads(3000, 5000, 3500, 2900))));
        assert!(is_article(&shop(roads(4500, 10000, 5000, 4400))));
    }

    #[test]
    fn an_undated_page_of_prose_sections_reads_as_the_region() {
        let prose =
            "A sentence of an article that goes on, as prose does, past eighty characters.\n";
        let other =
            "Another section's sentence, a hero's or a testimonial's, past eighty characters.\n";
        let page = |dated: bool| Roads {
            article: prose.repeat(20),
            region: format!("{}{}", prose.repeat(20), other.repeat(5)),
            dated,
            ..roads(0, 0, 2500, 1900)
        };
        assert!(is_article(&page(true)));
        assert!(!is_article(&page(false)));
        // Dates written out, or an ISO date; a bare year or a price is none.
        assert!(super::has_date("Posted on March 3, 2024 by"));
        assert!(super::has_date("20 Nov, 2019 05:47"));
        assert!(super::has_date("updated 2024-03-03"));
        assert!(!super::has_date(
            "Since 2004, over 20 2000-watt heaters sold: $2024"
        ));
    }

    #[test]
    fn a_short_part_of_a_big_page_reads_as_the_region() {
        // A short news story beside much else is still the article when its prose is enough.
        assert!(is_article(&roads(1200, 6000, 1300, 1200)));
        assert!(!is_article(&roads(1100, 4000, 900, 900)));
        assert!(is_article(&roads(700, 1500, 800, 700)));
    }
}
