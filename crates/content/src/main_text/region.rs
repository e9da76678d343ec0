//! M8 region: the main text of a page that is not one article (a product, a listing or
//! collection of cards, a thread of short posts, a docs index): the page's declared content
//! region (its `main`, or `role="main"`, when that holds at least [`MAIN_SHARE`] of the body's
//! text; else the body), with what is plainly not content cut out: navigation, asides, sidebars
//! and footers (their tags, or a class or id word ending or starting so, `p-body-sidebar`,
//! `site-footer`, `main-menu`, `navbar`, not a layout's `has-sidebar`, `sidebar-enabled--false`,
//! `under-menu`: `a_layouts_state_beside_its_sidebar_is_not_the_sidebar`;
//! `a_forums_sidebar_is_cut_from_the_region`,
//! `a_footer_named_by_its_class_is_cut_from_the_region`,
//! `a_menu_named_by_its_class_is_cut_from_the_region`; not a part named a menu whose text is
//! three paragraphs or more of prose with little link text, a section's questions in tabs:
//! `a_menu_of_prose_is_kept_in_the_region`),
//! buttons (not one that asks a question: `question_buttons_are_kept`; nor an accordion's
//! title, a button holding a heading or sitting in one, or named "accordion":
//! `an_accordions_title_buttons_are_kept`),
//! the page's banner (a `header`, not one whose nearest sectioning ancestor is a `section`,
//! which heads that section: `a_sections_header_is_kept_in_the_region`, nor one whose nearest
//! is the `main`, the page's hero: `a_header_inside_main_is_not_the_banner`, nor one inside one of
//! several sibling `article`s, an entry's or a post's head: `an_entrys_header_is_not_the_banner`),
//! menus of short links
//! (not a product's card of links, its title, maker and format beside one price:
//! `a_listings_cards_of_links_are_not_menus`;
//! nor a listing's entry: a linked headline, "Data Saturday Chicago 2026", over links of its
//! place and topics: `a_listings_entries_with_linked_headlines_are_not_menus`; or a linked
//! heading or a long linked title, and some plain text: `a_listings_entries_with_linked_titles_are_not_menus`,
//! `a_listings_entries_with_long_linked_titles_are_not_menus`; nor a list under its own heading
//! beside the region's prose, a wiki's index by letter: `a_list_under_its_heading_beside_prose_is_not_a_menu`;
//! nor a section of lists that opens with its heading and holds a lead paragraph, a wiki's
//! category page, nor a group of links inside such a list or section, its entries under one
//! letter: `a_section_of_lists_under_its_heading_and_lead_is_not_a_menu`;
//! nor one line of links joined by commas, a paper's authors: `a_line_of_linked_names_is_not_a_menu`;
//! nor a table's rows of linked names, a list of laureates by year, though a row of one button
//! under each plan is cut: `a_tables_rows_of_links_are_its_data`; nor, when cutting them leaves
//! a heading or a line, under 200 bytes, those outside the page's chrome, a page that is a block
//! of links, a catalog's index of categories: `a_page_made_of_a_block_of_links_keeps_it`),
//! forms of controls (not a form the person sees no control in, which wraps
//! content: `a_form_that_wraps_posts_is_content`), dialogs, parts whose class or id says
//! cookie notice, sharing, newsletter, breadcrumb, a dialog (not the link or button that
//! opens one, `modallink-wrap`, `modal-trigger`: `a_dialogs_opener_is_not_the_dialog`; nor
//! words of a sentence, a paragraph's link named `external-popup`, though text for screen
//! readers only is cut wherever it sits: `a_sentences_words_are_not_cut_by_their_class`), ads
//! (not a listing's grid that hides the ad
//! among its entries, `hide-read-more-ad`: `tokens_that_hide_ads_are_not_ads`), "related" (not
//! in the second reading, under [`REGION_MIN_BYTES`], outside the page's chrome, a part holding
//! more than the first reading kept: a shop's category grid built from a theme's
//! related-products block, when cutting it leaves a heading:
//! `a_listing_whose_only_grid_is_named_related_keeps_it`), a notice to every visitor
//! (`a_sites_notice_is_cut_from_the_region`) or a badge (a post's "Author", a card's "Sale":
//! `a_badge_is_cut_from_the_region`; not a card whose bare modifier token, `--badged`, says it
//! carries one: `a_cards_modifier_naming_a_badge_is_not_a_badge`;
//! `the_declared_main_region_is_read_whole`, `forms_and_banners_are_cut_from_the_region`), and
//! a figure's caption as M4 reads one (a `figcaption`, not a code listing's nor one numbering
//! its figure; not a class word here, which a shop's cards use for their text:
//! `a_figures_caption_is_cut_from_the_region`),
//! a wiki's furniture around its article (MediaWiki's skip links, tagline and printed footer,
//! `mw-jump-link`, `siteSub`, `printfooter`: `a_wikis_furniture_is_cut_from_the_region`),
//! a thread's furniture around its posts (author cards, signatures, page links:
//! `a_threads_furniture_is_cut`; named as a component's element too, `MessageCard__user-info`:
//! `a_threads_furniture_named_as_a_components_element_is_cut`; a word ending so, named after
//! its post, `messageUserInfo`: `an_author_card_named_after_its_post_is_cut`), on a page that
//! sells (a control says "Add to cart", "Buy now", …, or its class or id does, `add-to-cart`:
//! `a_buy_controls_class_says_the_page_sells`) its customer reviews
//! (`customer_reviews_are_cut_from_a_product`; not a publisher's or critics' reviews,
//! `editorialReviews`, nor a part named the description too: `critics_reviews_are_kept_on_a_product`) and the section its reviews heading starts
//! ("Customer reviews", "Top reviews", "What our customers say", …:
//! `a_shops_review_heading_cuts_its_section`), its seller's card and returns policy
//! (`a_shops_seller_and_returns_parts_are_cut`), its disclaimers by class word, the footnotes
//! under its features (`a_shops_disclaimers_are_cut`), its legal small print by a class word's
//! part starting "legal", a game's terms and trademarks (`game_area_legal`; not a typography
//! preset, `has-legal-font-size`: `a_shops_legal_small_print_is_cut`), on a page that sells
//! one product a carousel's block of product cards (three links and prices or more, mostly link
//! text: other products, under a heading no rule knows:
//! `a_carousel_of_other_products_is_cut_from_a_product`), the section a shop's recommendations heading
//! starts ("You may also like", "Customers also bought", "Similar items", …; a thread's
//! "Similar threads": `a_listings_entries_with_long_linked_titles_are_not_menus`; a page's
//! teasers of its other pages, "Related insights", "Related content", "Recent posts":
//! `related_content_headings_cut_their_section`; a marketplace's "Products related to this
//! item", "Customers frequently viewed", "Popular right now", …:
//! `a_shops_other_recommendation_headings_cut_their_section`; the nearest
//! ancestor of that short text holding more than it, when the text starts it:
//! `recommendation_carousels_are_cut_from_the_region`; for a bar of the heading and its
//! controls, "Similar Items", "Sponsored", "See all", the section around the bar:
//! `a_recommendations_bar_heads_the_section_below_it`), an element that only says what a shop's
//! control does ("Quick view", "Compare", "Add to cart", "Sponsored", …, written as a link or a
//! span: `shop_controls_are_cut_from_the_region`; a card's "Learn more", "Apply now", "Read more",
//! a grid's "Loading...", "Filters", the skip links:
//! `pointer_and_loading_labels_are_cut_from_the_region`; a card's badge, "Top rated", "New
//! arrival", a review's "Verified purchase", "Write a review":
//! `card_badges_and_review_controls_are_cut_from_the_region`; a card's "Book now", "View
//! options", "Read full article", "View company profile", "Toggle caption":
//! `a_cards_booking_and_detail_buttons_are_cut`; calls to act, "Start free trial", "Download
//! now", "See details", and a grid's "Load more", "Sort", "Next page":
//! `calls_to_act_and_a_grids_pager_are_cut`; a post's "Reply" button:
//! `a_posts_reply_buttons_are_cut`; a thread's "Click to expand...",
//! "Click to shrink...", "Back", "Top", "Bottom", "Toggle sidebar", "You must log in or
//! register to reply here.":
//! `a_threads_controls_and_notices_are_cut`; a reply's subject line, a heading or a link of one
//! line starting "Re:": `a_replys_subject_line_is_cut`; a post's number, a link alone of "#"
//! and digits: `a_posts_number_link_is_cut`; a thread's notes, a short block starting "Thread
//! starter" or "Last edited": `a_threads_notes_are_cut`; the box that asks a guest to join, "Create an
//! account", "Sign in", "Register a new account": `a_threads_call_to_join_is_cut`; a listing's
//! sort control, "Sort: Best Match": `a_listings_sort_control_is_cut`; a post's counts, "44
//! reactions", "27 comments", not its reading time: `a_posts_counts_are_cut`; an ad slot's label,
//! "Advertisement": `an_ad_slots_label_is_cut`; never such words inside a sentence, "click
//! <b>Compare</b> to see …": `a_labels_words_inside_a_sentence_are_kept`), a tooltip's
//! popup (`role="tooltip"`, `tool-tip__content`, `tooltiptext`: what a spec's term means, not
//! the product: `tooltips_are_cut_from_the_region`), a picture of the product drawn in markup
//! (a class's component or element name ending in "illustration", or "mockup":
//! `illustrations_drawn_in_markup_are_cut_from_the_region`), never a part holding
//! half of the region (`a_page_wrapped_in_a_form_keeps_its_region`), nor two fifths of it when
//! its text is mostly lines of prose (a page's sections in a wrapper named `promo-container`:
//! `a_part_of_prose_holding_much_of_the_region_is_kept`; and inside such a part, a piece named
//! after it, a token starting as one of its own up to the class word, `cmp-promo__services` in
//! `cmp-promo-container`: `a_components_pieces_named_after_it_are_kept`), unless it is the page's
//! chrome by its tag or role, a `nav`, a `footer`, a banner (a site's menu of many entries can
//! outweigh a landing page's few short sections: `a_big_menu_is_cut_from_the_region`; a site's
//! footer of testimonials, links and legal text longer than the page's content:
//! `a_footer_longer_than_the_content_is_cut`), or a shop's customer reviews
//! (`customer_reviews_longer_than_the_product_are_cut`). Lists of links stay: on such pages they
//! are the content (a listing's entries, an index of languages). A block that repeats an earlier
//! sibling's text is read once (a carousel's cloned slides:
//! `repeated_sibling_blocks_are_read_once`; M9 weighs the region with the repeats), and so is a
//! quote (a `blockquote`, a class word "quote") whose long lines, three quarters of its bytes
//! in them or more, the region has read above it: a reply quoting an earlier post, with its
//! "… said:" (`a_quote_of_an_earlier_post_is_read_once`; a quote of a post not on the page is
//! kept: `a_quote_of_a_post_not_on_the_page_is_kept`), and a block whose long lines, a
//! thousand bytes of them or more, the region has all read above it: the page's content
//! carried twice, for small screens and for large (`a_second_copy_of_the_content_is_read_once`).

use crate::observation::Tree;
use crate::render::Rendered;

use super::page::{
    at, has_ad_token, is_ad_label, is_caption, is_heading, is_question_button, len,
    names_hidden_text, noise_by_kind, on_a_prose_line, set, text_without, tidy_breaks, Counts,
    LineSums, Page, LONG_LINE_SHARE, MIN_PARAGRAPH_BYTES,
};

/// The share of the body's text a declared main must hold to be the region.
pub(super) const MAIN_SHARE: f64 = 0.25;

/// Class or id words that mark a part of the region as not content (matched as substrings).
const REGION_NOISE: &[&str] = &[
    "cookie",
    "consent",
    "gdpr",
    "newsletter",
    "subscribe",
    "signup",
    "sign-up",
    "share",
    "sharing",
    "social",
    "breadcrumb",
    "skip-link",
    "skiplink",
    "skip-to",
    "related",
    "recommend",
    "sponsor",
    "promo",
    "popup",
    "modal",
    "signature",
    "notice",
    "badge",
];

/// Class or id tokens (matched whole) of a wiki's furniture around its article (MediaWiki's):
/// the skip links ("Jump to navigation"), the tagline ("From the wiki") and the printed
/// footer ("Retrieved from …"): `a_wikis_furniture_is_cut_from_the_region`.
const WIKI_FURNITURE: &[&str] = &["mw-jump-link", "sitesub", "printfooter"];

/// Whether class or id words name a wiki's furniture ([`WIKI_FURNITURE`], whole tokens).
fn names_wiki_furniture(h: &str) -> bool {
    h.split_ascii_whitespace()
        .any(|t| WIKI_FURNITURE.contains(&t))
}

/// Class or id tokens (matched whole) that mark a thread's furniture around each post: who
/// wrote it and their standing, the pages of the thread (`a_threads_furniture_is_cut`). Whole
/// tokens, as the post's own body is often named after them (`message-usercontent`).
const THREAD_FURNITURE: &[&str] = &[
    "userinfo",
    "user-info",
    "user-details",
    "userdetails",
    "postprofile",
    "author-info",
    "authorinfo",
    "poster-info",
    "message-user",
    "postleft",
    "post_author",
    "author_statistics",
    "pagination",
    "pager",
];

/// Whether class or id words name a thread's furniture around a post ([`THREAD_FURNITURE`],
/// whole tokens, or a token's element after `__` without its `--` modifier, as components name
/// their parts): M8 cuts it from the region, M4 from the article road's part.
pub(super) fn names_thread_furniture(h: &str) -> bool {
    /// How a word that names a post's author card ends, whatever names the post before it
    /// (`messageuserinfo`, `postuserinfo`, `extrauserinfo`).
    const CARD_ENDINGS: &[&str] = &["userinfo", "userdetails", "authorinfo", "posterinfo"];
    h.split_ascii_whitespace().any(|t| {
        THREAD_FURNITURE.contains(&t)
            || CARD_ENDINGS.iter().any(|e| t.ends_with(e))
            || t.rsplit_once("__").is_some_and(|(_, el)| {
                THREAD_FURNITURE.contains(&el.split("--").next().unwrap_or(el))
            })
    })
}

/// Class or id words (matched as substrings) that mark a shop's furniture around its product, on
/// a page that sells (see [`BuyControls::sells`]): its customer reviews, what buyers said, not the product's
/// description (`customer_reviews_are_cut_from_a_product`); a marketplace's card of the seller
/// and its returns policy (`a_shops_seller_and_returns_parts_are_cut`).
const SHOP_FURNITURE: &[&str] = &[
    "reviews",
    "yotpo",
    "bazaarvoice",
    "jdgm",
    "okendo",
    "trustpilot",
    "seller",
    "returns",
];

/// How the heading of a shop's recommendations starts (English only): other products, not this
/// one (`recommendation_carousels_are_cut_from_the_region`); a site's teasers of its other
/// pages, not this one ("Related posts", "More from our advisers", "You may be interested in",
/// "Trending stories": `related_content_headings_cut_their_section`; not "Related resources",
/// which a page often lists as its own further reading).
const RECOMMENDATION_HEADINGS: &[&str] = &[
    "you may also like",
    "you might also like",
    "you may also be interested",
    "frequently bought together",
    "customers who bought",
    "customers who viewed",
    "customers also bought",
    "customers also viewed",
    "people who viewed",
    "people who bought",
    "people also viewed",
    "people also bought",
    "similar items",
    "explore related items",
    "similar products",
    "similar threads",
    "related products",
    "related items",
    "recently viewed",
    "complete the look",
    "shop the look",
    "recommended for you",
    "sponsored products",
    "products related to this item",
    "customers frequently viewed",
    "often viewed with",
    "similar brands on",
    "shop similar",
    "get the look",
    "ideas based on your",
    "popular right now",
    "related content",
    "related insights",
    "related services",
    "related articles",
    "related posts",
    "related stories",
    "recent posts",
    "latest insights",
    "recent articles",
    "recent blogs",
    "more from",
    "more articles",
    "more stories",
    "explore more articles",
    "articles you might",
    "other posts you may",
    "you may be interested",
    "you might be interested",
    "you may also check",
    "related read",
    "trending stories",
    "trending news",
];

/// How the heading of a shop's customer reviews starts (English only), on a page that sells:
/// what buyers said, not the product (`a_shops_review_heading_cuts_its_section`).
const REVIEW_HEADINGS: &[&str] = &[
    "customer reviews",
    "top reviews",
    "reviews with images",
    "write a review",
    "what our customers say",
    "what customers say",
    "customers say",
];

/// Whether class or id words name [`SHOP_FURNITURE`]: a word (between `-`, `_` and spaces)
/// starting with "seller" or "returns" (a grid's `bestseller` tile is a product, not its
/// seller), any of the others within a word.
fn names_shop_furniture(h: &str) -> bool {
    let words = || h.split(|c: char| !c.is_ascii_alphanumeric());
    SHOP_FURNITURE.iter().any(|&k| match k {
        "seller" | "returns" => words().any(|w| w.starts_with(k)),
        _ => names_buyers_reviews(h, k),
    })
}

/// Whether class or id words name what buyers said by one of [`SHOP_FURNITURE`]'s review
/// words: not a publisher's or critics' reviews (`editorialReviews`) nor a part named the
/// product's description too (`game_area_description game_area_reviews`): the press quotes a
/// shop shows as the product's description (`critics_reviews_are_kept_on_a_product`).
fn names_buyers_reviews(h: &str, k: &str) -> bool {
    h.contains(k) && !h.contains("editorial") && !h.contains("description")
}

/// Whether class or id words name a shop's small print, on a page that sells (see [`BuyControls::sells`]):
/// its disclaimers, the numbered footnotes under a product's features (results may vary,
/// sold separately, a financing offer's terms), which are the seller's legal cover, not the
/// product (`a_shops_disclaimers_are_cut`). Only on a page that sells: a service's or an
/// article's disclaimer is often its own content (a quote's terms, a calculator's
/// assumptions). A class word's part starting with "legal" names it too, the terms and
/// trademarks under a product (`game_area_legal`, `legal-text`:
/// `a_shops_legal_small_print_is_cut`), not a typography preset's size (`has-legal-font-size`,
/// `type-body-legal`: [`is_type_scale`]).
fn names_small_print(h: &str) -> bool {
    h.contains("disclaimer")
        || h.split_ascii_whitespace()
            .any(|t| !is_type_scale(t) && t.split(['-', '_']).any(|part| part.starts_with("legal")))
}

/// A class word of a typography preset (`has-legal-font-size`, `type-body-legal`,
/// `text-legal`): how big its text is drawn, not what it is.
fn is_type_scale(t: &str) -> bool {
    t.contains("font") || ["has-", "type-", "text-"].iter().any(|p| t.starts_with(p))
}

/// The article road on a page that sells (see [`BuyControls::sells`]): a part whose class or id names
/// [`SHOP_FURNITURE`], which M4 cuts from the chosen part as M8 does from the region
/// (`a_shops_reviews_are_not_its_article`).
pub(super) fn is_shop_furniture(page: &Page<'_, '_, '_>, i: usize) -> bool {
    names_shop_furniture(page.hints(i))
}

/// The article road on a page that sells: a part whose class or id names its small print
/// ([`names_small_print`]), which M4 cuts from the chosen part as M8 does from the region
/// (`a_shops_legal_small_print_is_cut`). Not M1's unlikely parts: its paragraphs still
/// weigh the part they are in.
pub(super) fn is_small_print(page: &Page<'_, '_, '_>, i: usize) -> bool {
    names_small_print(page.hints(i))
}

/// M1 on a page that sells: the parts [`is_shop_furniture`] names (never the page's `main`,
/// `article` or `body`) are unlikely, their paragraphs never count, so customer reviews longer
/// than the description do not win the article road (`a_shops_reviews_are_not_its_article`).
pub(super) fn shop_furniture_is_unlikely(page: &mut Page<'_, '_, '_>) {
    let tree = page.tree;
    for &i in &page.r.order {
        let i = i as usize;
        let inherited = tree.parent_of(i).is_some_and(|p| at(&page.unlikely, p));
        let node = tree.node(i);
        let own = node.is_element()
            && !matches!(node.tag(), "main" | "article" | "body" | "html")
            && is_shop_furniture(page, i);
        if inherited || own {
            set(&mut page.unlikely, i, true);
        }
    }
}

/// A shop's customer reviews by class or id word ([`SHOP_FURNITURE`] but its seller and
/// returns), on a page that sells, are cut even when they hold half of the region or more: a
/// popular product's reviews often outweigh its description
/// (`customer_reviews_longer_than_the_product_are_cut`). Never the page's `main`, `article` or
/// `body`.
fn are_reviews(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let h = page.hints(i);
    !matches!(
        page.tree.node(i).tag(),
        "main" | "article" | "body" | "html"
    ) && SHOP_FURNITURE
        .iter()
        .any(|&k| !matches!(k, "seller" | "returns") && names_buyers_reviews(h, k))
}

/// What a shop's controls say, compared on an element's whole trimmed text (English only): a
/// card's buttons written as links or spans (`shop_controls_are_cut_from_the_region`,
/// `a_cards_booking_and_detail_buttons_are_cut`).
const CONTROL_LABELS: &[&str] = &[
    "quick view",
    "add to wishlist",
    "add to cart",
    "add to bag",
    "add to basket",
    "add to list",
    "compare",
    "shop now",
    "see more",
    "see all",
    "view all",
    "show more",
    "select options",
    "choose options",
    "view details",
    "sponsored",
    "learn more",
    "apply now",
    "read more",
    "view full details",
    "skip to main content",
    "skip to content",
    "loading...",
    "loading",
    "filters",
    "top rated",
    "new arrival",
    "write a review",
    "see more reviews",
    "verified purchase",
    "view image gallery",
    "book now",
    "read full article",
    "view options",
    "toggle caption",
    "view company profile",
    "start free trial",
    "get started for free",
    "download now",
    "download",
    "see details",
    "load more",
    "sort",
    "previous page",
    "next page",
    "skip to product list",
];

/// What a forum's controls and notices around a thread say, each the whole text of its element
/// (English only): quotes' expanders, page jumps, the calls to sign in or ask, a closed thread's
/// status (`a_threads_controls_and_notices_are_cut`), the box that asks a guest to join
/// (`a_threads_call_to_join_is_cut`), a post's "Reply" button (`a_posts_reply_buttons_are_cut`).
const THREAD_LABELS: &[&str] = &[
    "reply",
    "click to expand...",
    "click to expand",
    "click to shrink...",
    "click to shrink",
    "back",
    "top",
    "bottom",
    "toggle sidebar",
    "toggle sidebar toggle sidebar",
    "ask question",
    "new posts",
    "search forums",
    "start asking to get answers",
    "find the answer to your question by asking.",
    "explore related questions",
    "see similar questions with these tags.",
    "go to topic listing",
    "you must log in or register to reply here.",
    "you must log in to answer this question.",
    "create an account or sign in to comment",
    "you need to be a member in order to leave a comment",
    "create an account",
    "sign up for a new account in our community. it's easy!",
    "register a new account",
    "sign in",
    "already have an account? sign in here.",
    "sign in now",
    "not open for further replies.",
];

/// How a control that buys starts (English only).
const BUY_CONTROLS: &[&str] = &[
    "add to cart",
    "add to bag",
    "add to basket",
    "add to trolley",
    "add to shopping",
    "buy now",
    "buy it now",
];

/// How a buy control's class or id is written, without `-` and `_` (`add-to-cart`,
/// `btn_addtocart`, `addToBag`): a shop's button of an icon or of a label the observation
/// does not hold (`a_buy_controls_class_says_the_page_sells`).
const BUY_CLASS_WORDS: &[&str] = &["addtocart", "addtobag", "addtobasket", "buynow"];

/// Whether class or id words name a buy control ([`BUY_CLASS_WORDS`]).
fn names_buy_control(h: &str) -> bool {
    let squeezed: String = h.chars().filter(|&c| c != '-' && c != '_').collect();
    BUY_CLASS_WORDS.iter().any(|k| squeezed.contains(k))
}

/// The page's buy controls, read in one walk: short visible texts (a button's label) or input
/// values that say to buy ([`BUY_CONTROLS`]), and the outermost rendered elements whose class or
/// id does ([`BUY_CLASS_WORDS`]; a wrapper and its button are one control).
#[derive(Clone, Copy)]
pub(super) struct BuyControls {
    labels: usize,
    named: usize,
}

impl BuyControls {
    pub(super) fn of(page: &Page<'_, '_, '_>) -> Self {
        let (tree, r) = (page.tree, page.r);
        // A label of under 40 bytes lower-cased was under 120 before (lower-casing shrinks a
        // character's UTF-8 at most threefold): longer texts are never lower-cased (copied).
        let says_buy = |t: &str| {
            let t = t.trim();
            t.len() < 120 && {
                let s = t.to_lowercase();
                s.len() < 40 && BUY_CONTROLS.iter().any(|p| s.starts_with(p))
            }
        };
        let mut named = vec![false; tree.obs.nodes.len()];
        let mut out = BuyControls {
            labels: 0,
            named: 0,
        };
        for &i in &r.order {
            let i = i as usize;
            let node = tree.node(i);
            let said = match &node.text {
                Some(_) => r.span(i).is_some_and(|(a, b)| says_buy(r.slice(a, b))),
                None if node.tag() == "input" => node.attr("value").is_some_and(says_buy),
                None => false,
            };
            if said {
                out.labels += 1;
            }
            let inside = tree.parent_of(i).is_some_and(|p| at(&named, p));
            let own = node.is_element() && r.span(i).is_some() && names_buy_control(page.hints(i));
            if own && !inside {
                out.named += 1;
            }
            set(&mut named, i, inside || own);
        }
        out
    }

    /// Whether the page sells: a buy label or a control named so.
    pub(super) fn sells(self) -> bool {
        self.labels > 0 || self.named > 0
    }

    /// Whether the page sells one product: at most [`ONE_PRODUCT_LABELS`] buy labels and
    /// [`ONE_PRODUCT_NAMED`] controls named so, not a grid of products each with its button
    /// (M9: `a_product_pages_description_is_not_its_main_text`,
    /// `a_grid_of_buy_buttons_is_not_one_product`).
    pub(super) fn sells_one(self) -> bool {
        self.sells() && self.labels <= ONE_PRODUCT_LABELS && self.named <= ONE_PRODUCT_NAMED
    }
}

/// Most buy labels, and most elements named a buy control, on a page that sells one product.
const ONE_PRODUCT_LABELS: usize = 4;
const ONE_PRODUCT_NAMED: usize = 9;

/// The region's root: the declared main, else the body.
pub(super) fn root(page: &Page<'_, '_, '_>, body: usize) -> usize {
    let (tree, r) = (page.tree, page.r);
    let body_len = len(r, body) as f64;
    r.order
        .iter()
        .map(|&i| i as usize)
        .find(|&i| {
            let node = tree.node(i);
            node.is_element()
                && (node.tag() == "main"
                    || node
                        .attr("role")
                        .is_some_and(|v| v.trim().eq_ignore_ascii_case("main")))
                && len(r, i) as f64 >= MAIN_SHARE * body_len
        })
        .unwrap_or(body)
}

/// Whether an element inside the region is cut (M8). `kept_words` are the class or id words of
/// the parts around it kept from a cut by their prose ([`holds_the_prose`]): a [`REGION_NOISE`]
/// word they name a piece of ([`names_a_piece_of`]) is the component's, not noise inside it.
/// `cut_menus`, `cut_related`: whether menus of short links, and parts named "related", are cut
/// ([`text`]'s second reading keeps some; no menu is cut that is, or is inside, the page's
/// lists under their heading, [`is_listed`]).
pub(super) fn is_cut(
    page: &Page<'_, '_, '_>,
    i: usize,
    shop: bool,
    kept_words: &str,
    cut_menus: bool,
    cut_related: bool,
) -> bool {
    let tree = page.tree;
    let node = tree.node(i);
    if noise_by_kind(tree, i) && !is_question_button(page, i) {
        return true;
    }
    if matches!(node.tag(), "input" | "label" | "fieldset") || is_banner(page, i) {
        return true;
    }
    if node.tag() == "form" {
        return is_controls(page, i);
    }
    if node
        .attr("role")
        .is_some_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "banner" | "form"))
    {
        return true;
    }
    if matches!(node.tag(), "main" | "article" | "body" | "html") {
        return false;
    }
    let h = page.hints(i);
    if names_hidden_text(h)
        || is_tooltip(tree, i, h)
        || names_illustration(tree, i)
        || (node.tag() == "figcaption" && is_caption(page, i))
    {
        return true;
    }
    // A part named as noise is cut, unless it is words of a sentence: a link named
    // `external-popup` in a paragraph is the paragraph's
    // (`a_sentences_words_are_not_cut_by_their_class`).
    if names_a_part_to_cut(page, i, h, shop, kept_words, cut_related) && !on_a_prose_line(page, i) {
        return true;
    }
    (cut_menus
        && is_menu(page, i)
        && !names_contents(h)
        && !is_list_of_names(page, i)
        && !is_table_data(page, i))
        || is_control_label(page, i)
}

/// Whether an element's class or id words `h` name a part of the page that is not its content:
/// a [`REGION_NOISE`] word (not naming a piece of a kept part, [`names_a_piece_of`]; "related"
/// only when `cut_related`), an ad, a
/// thread's or a wiki's furniture, a shop's furniture or small print (`shop`), a side part.
fn names_a_part_to_cut(
    page: &Page<'_, '_, '_>,
    i: usize,
    h: &str,
    shop: bool,
    kept_words: &str,
    cut_related: bool,
) -> bool {
    (!h.is_empty()
        && REGION_NOISE.iter().any(|k| {
            (cut_related || *k != "related")
                && names_noise(h, k)
                && !names_a_piece_of(h, k, kept_words)
        }))
        || has_ad_token(h)
        || names_thread_furniture(h)
        || names_wiki_furniture(h)
        || (shop && (names_shop_furniture(h) || names_small_print(h)))
        || (h.split_ascii_whitespace().any(names_side_part) && !is_menu_of_prose(page, i, h))
}

/// Whether class or id words `h` name a table of contents: a token that is `toc` or has it as
/// a part between `-` and `_` (`toc`, `toc-spy`, `post-toc`), or one that holds
/// "table-of-contents" or "tableofcontents". A chapter's list of its sections is the page's
/// structure, links alone though it is (`a_table_of_contents_is_not_a_menu`); a side part's
/// is cut as that part is.
fn names_contents(h: &str) -> bool {
    h.split_ascii_whitespace().any(|t| {
        t.split(['-', '_']).any(|p| p == "toc")
            || t.contains("table-of-contents")
            || t.contains("tableofcontents")
    })
}

/// Fewest rows of a table whose rows of links are its data.
const TABLE_MIN_ROWS: usize = 3;

/// Whether a block of short links is a data table's or one of its rows: a table, or a row among
/// [`TABLE_MIN_ROWS`] or more whose cells say different things (a list of laureates by year).
/// A row of one button repeated ("Order now" under each plan) is no data.
fn is_table_data(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let tree = page.tree;
    match tree.node(i).tag() {
        "table" | "tbody" | "thead" => true,
        "tr" => {
            let rows = tree.parent_of(i).map_or(0, |p| {
                shown_kids(page, p)
                    .filter(|&k| tree.node(k).tag() == "tr")
                    .count()
            });
            let cell = |k: usize| page.r.span(k).map(|(a, b)| page.r.slice(a, b).trim());
            let mut cells = shown_kids(page, i).map(cell);
            let first = cells.next().flatten();
            rows >= TABLE_MIN_ROWS && cells.any(|c| c != first)
        }
        _ => false,
    }
}

/// Whether a block of short links is one line of them joined by commas, a comma or more
/// between each two: a paper's authors, a post's number and author, a byline of several writers
/// (`a_line_of_linked_names_is_not_a_menu`). A menu's links stand apart, in items or spaced.
fn is_list_of_names(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let c = at(&page.counts, i);
    page.r.span(i).is_some_and(|(a, b)| {
        let t = page.r.slice(a, b).trim();
        !t.contains('\n') && t.matches(',').count() + 1 >= c.anchors
    })
}

/// What follows "modal" or "popup" in a class or id token (without `-` and `_`) naming the
/// control that opens one, not the dialog (`modallink-wrap`, `modal-trigger`, `popup-btn`).
const OPENER_PARTS: &[&str] = &[
    "link", "trigger", "toggle", "btn", "button", "open", "launch",
];

/// Whether class or id words `h` hold the [`REGION_NOISE`] word `k`: for "modal" and "popup",
/// in a token that names the dialog, not the link or button that opens it, a card's visible
/// text (`a_dialogs_opener_is_not_the_dialog`). Never in a bare modifier token, `--badged`: the
/// component's variant (a card that carries a badge), not what it is
/// (`a_cards_modifier_naming_a_badge_is_not_a_badge`).
fn names_noise(h: &str, k: &str) -> bool {
    if !matches!(k, "modal" | "popup") {
        // One search over all the words first: most elements name no noise word, and `is_cut`
        // asks per element and per word.
        return h.contains(k)
            && h.split_ascii_whitespace()
                .any(|t| !t.starts_with("--") && t.contains(k));
    }
    after_word(h, k).any(|rest| !OPENER_PARTS.iter().any(|p| rest.starts_with(p)))
}

/// Whether a class or id token of `h` holding the noise word `k` names a piece of the part
/// kept around it (`kept`'s words): a token of the kept part starts as that token does up to
/// the word (`cmp-promo__services`, `cmp-promo-tracking` inside `cmp-promo-container`), the
/// parts of one component named after it, not a promotion inside a page's section
/// (`a_components_pieces_named_after_it_are_kept`).
fn names_a_piece_of(h: &str, k: &str, kept: &str) -> bool {
    !kept.trim().is_empty()
        && h.split_ascii_whitespace().any(|t| {
            t.split_once(k).is_some_and(|(before, _)| {
                kept.split_ascii_whitespace().any(|w| {
                    w.strip_prefix(before)
                        .is_some_and(|rest| rest.starts_with(k))
                })
            })
        })
}

/// How a carousel's class or id word starts, or a part of it between `-` and `_` does
/// (`x-prp-carousel`, `swiper-wrapper`, `slick-track`, `splide__list`).
const CAROUSEL_WORDS: &[&str] = &[
    "carousel", "slider", "swiper", "slick", "splide", "flickity",
];

/// The elements in a carousel: its class or id, or an ancestor's, names one
/// ([`CAROUSEL_WORDS`]), read in one walk.
fn carousels(page: &Page<'_, '_, '_>) -> Vec<bool> {
    let tree = page.tree;
    let mut out = vec![false; tree.obs.nodes.len()];
    for &i in &page.r.order {
        let i = i as usize;
        let inherited = tree.parent_of(i).is_some_and(|p| at(&out, p));
        let own = tree.node(i).is_element()
            && page
                .hints(i)
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| CAROUSEL_WORDS.iter().any(|k| w.starts_with(k)));
        set(&mut out, i, inherited || own);
    }
    out
}

/// Fewest cards, each a link and a price, in a block of other products.
const CARDS_MIN: usize = 3;

/// A block of product cards: [`CARDS_MIN`] links or more, as many prices or more, and mostly
/// link text (each card's name links to its page). In a carousel ([`carousels`]) on a page that
/// sells one product, other products: a shop's recommendations under a heading no rule knows
/// ("Get everything you need", "Popular right now"):
/// `a_carousel_of_other_products_is_cut_from_a_product` (a collection's grid is its content).
fn are_product_cards(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let c = at(&page.counts, i);
    c.anchors >= CARDS_MIN && c.prices >= CARDS_MIN && page.density(i) >= 0.5
}

/// An illustration drawn in markup (a product's mock-up in a landing page's section, its
/// sample issues, code and buttons): a class token whose component or element name (a part
/// between `_` and `-`) ends in "illustration" or is "mockup" (`PageSection_illustration__x`,
/// `ReviewsIllustration_root`), or whose last part is "graphic", a component's graphic
/// (`ProductFeatureCard__graphic`, `swimlane-graphic`: an editor drawn with its code; not a
/// `graphic-list`, a list styled so, nor a bare `graphic`): a picture of the product, not its
/// text (`illustrations_drawn_in_markup_are_cut_from_the_region`).
fn names_illustration(tree: &Tree<'_>, i: usize) -> bool {
    tree.node(i).attr("class").is_some_and(|v| {
        let v = v.to_ascii_lowercase();
        v.split(|c: char| c.is_ascii_whitespace() || c == '_' || c == '-')
            .any(|part| part.ends_with("illustration") || part == "mockup")
            || v.split_ascii_whitespace().any(|t| {
                t != "graphic"
                    && t.rsplit(['-', '_'])
                        .next()
                        .is_some_and(|last| last == "graphic")
            })
    })
}

/// What follows "tooltip" in a class or id word (without `-` and `_`) naming a tooltip's
/// popup, not the term it explains (`tooltip-content`, `tool-tip__content`, `tooltiptext`).
const TOOLTIP_PARTS: &[&str] = &["content", "text", "body", "inner", "popup", "box"];

/// A tooltip's popup (`role="tooltip"`, or a class or id word "tooltip" followed by one of
/// [`TOOLTIP_PARTS`]): what a spec table's or an option's hint explains on hover (what an
/// impedance is, what a badge means), drawn in the page but not its content
/// (`tooltips_are_cut_from_the_region`). The term it explains stays.
fn is_tooltip(tree: &Tree<'_>, i: usize, h: &str) -> bool {
    tree.node(i)
        .attr("role")
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("tooltip"))
        || after_word(h, "tooltip").any(|rest| TOOLTIP_PARTS.iter().any(|p| rest.starts_with(p)))
}

/// For each class or id word of `h` holding `word` once `-` and `_` are taken out, what follows
/// its first `word` (`tool-tip__content` → "content", `modal-trigger` → "trigger"): what a
/// word names beside it, a tooltip's popup or the control that opens a dialog.
fn after_word<'h>(h: &'h str, word: &'h str) -> impl Iterator<Item = String> + 'h {
    h.split_ascii_whitespace().filter_map(move |t| {
        // Most words hold none: asked without building the squeezed word (this runs per
        // element, for every region cut).
        if !holds_squeezed(t, word) {
            return None;
        }
        let squeezed: String = t.chars().filter(|&c| c != '-' && c != '_').collect();
        squeezed.split_once(word).map(|(_, rest)| rest.to_string())
    })
}

/// Whether a class or id word holds `word` once its `-` and `_` are taken out
/// (`tool-tip__content` holds "tooltip"), read in place.
fn holds_squeezed(t: &str, word: &str) -> bool {
    let (t, w) = (t.as_bytes(), word.as_bytes());
    let Some(first) = w.first() else {
        return false;
    };
    (0..t.len()).any(|start| {
        let mut rest = t.iter().skip(start).filter(|&&c| c != b'-' && c != b'_');
        t.get(start) == Some(first) && w.iter().all(|c| rest.next() == Some(c))
    })
}

/// Fewest paragraphs of a part named a menu that is read as prose ([`is_menu_of_prose`]).
const MENU_OF_PROSE_PARAGRAPHS: usize = 3;

/// A part named a menu by its class or id words and by no other furniture word
/// ([`names_side_part`]: `faq_tabs-menu`) whose text is mostly lines of prose
/// ([`LONG_LINE_SHARE`]), [`MENU_OF_PROSE_PARAGRAPHS`] paragraphs or more, with little link
/// text: a tabbed section's questions and their answers, not a menu of short links nor a
/// menu's blurb (`a_menu_of_prose_is_kept_in_the_region`).
fn is_menu_of_prose(page: &Page<'_, '_, '_>, i: usize, h: &str) -> bool {
    let menu = |w: &str| {
        let mut parts = w.split(['-', '_']).filter(|p| !p.is_empty());
        parts.next() == Some("menu") || parts.next_back() == Some("menu")
    };
    h.split_ascii_whitespace()
        .filter(|w| names_side_part(w))
        .all(menu)
        && page.density(i) < 0.3
        && at(&page.counts, i).p >= MENU_OF_PROSE_PARAGRAPHS
        && page
            .r
            .span(i)
            .is_some_and(|span| page.long_line_share_of(span) >= LONG_LINE_SHARE)
}

/// The parts of a class or id word that name the site's furniture ([`names_side_part`]).
const FURNITURE_PARTS: &[&str] = &[
    "sidebar",
    "sidebars",
    "footer",
    "nav",
    "navbar",
    "navigation",
    "navheader",
    "navfooter",
    "menu",
    "topbar",
    "toolbar",
    "masthead",
];

/// A class or id word that names the site's furniture around the content: a sidebar, a footer, a
/// navigation bar or menu, a top bar or masthead ([`FURNITURE_PARTS`]) as its first or last part
/// between `-` and `_` (`p-body-sidebar`, `left-sidebar`, `sidebar-second`, `site-footer`,
/// `footer-links`, `main-menu`, `navbar`: `a_forums_sidebar_is_cut_from_the_region`,
/// `a_footer_named_by_its_class_is_cut_from_the_region`,
/// `a_menu_named_by_its_class_is_cut_from_the_region`), not a layout that has one
/// (`has-sidebar`, `with-sidebar`, `content-with-sidebar-wrap`), nor a layout's state or a
/// place beside the part (`sidebar-enabled--false`, `menu-open`, `under-menu`:
/// `a_layouts_state_beside_its_sidebar_is_not_the_sidebar`).
fn names_side_part(word: &str) -> bool {
    let parts: Vec<&str> = word.split(['-', '_']).filter(|p| !p.is_empty()).collect();
    let is = |p: Option<&&str>| p.is_some_and(|p| FURNITURE_PARTS.contains(p));
    let layout = parts
        .iter()
        .rev()
        .nth(1)
        .is_some_and(|p| matches!(*p, "has" | "with" | "no" | "one" | "two" | "without"));
    // A state of the page's layout (`sidebar-enabled--false`, `menu-open`) or a place beside
    // the part (`under-menu`): a wrapper's words, not the part's.
    let state = parts.get(1).is_some_and(|p| {
        matches!(
            *p,
            "enabled"
                | "disabled"
                | "open"
                | "opened"
                | "closed"
                | "collapsed"
                | "expanded"
                | "active"
                | "visible"
                | "true"
                | "false"
                | "on"
                | "off"
        )
    }) && is(parts.first());
    let place = parts.len() == 2
        && is(parts.last())
        && parts.first().is_some_and(|p| {
            matches!(
                *p,
                "under" | "below" | "above" | "after" | "before" | "beside"
            )
        });
    (is(parts.first()) || is(parts.last())) && !layout && !state && !place
}

/// Whether a `header` heads a section of the page, not the page: its nearest sectioning
/// ancestor is a `section`, or the page's `main`, a landing page's hero of its title and lead
/// (`a_header_inside_main_is_not_the_banner`; an `article`'s header is its title and byline,
/// which the region leaves out as before).
fn heads_a_section(page: &Page<'_, '_, '_>, i: usize) -> bool {
    page.nearest_sectioning(i)
        .is_some_and(|a| matches!(page.tree.node(a).tag(), "section" | "main"))
}

/// Whether an element is inside one of several sibling `article`s (a listing's entries, a
/// thread's posts): its `header` is the entry's or the post's head (its title, its date), not
/// the page's banner (`an_entrys_header_is_not_the_banner`).
fn in_article(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let tree = page.tree;
    let Some(a) = page.nearest_article(i) else {
        return false;
    };
    tree.parent_of(a).is_some_and(|p| {
        tree.node(p)
            .kids
            .iter()
            .filter(|&&k| k as usize != a && tree.node(k as usize).tag() == "article")
            .any(|&k| page.r.span(k as usize).is_some())
    })
}

/// An element that only says what a thread's control or notice says ([`THREAD_LABELS`]): M4
/// cuts it from the article road's part (M8 through [`is_control_label`]).
pub(super) fn is_thread_label(page: &Page<'_, '_, '_>, i: usize) -> bool {
    label(page, i).is_some_and(|t| THREAD_LABELS.contains(&t.as_str()))
        || is_thread_note(page, i)
        || is_post_number(page, i)
        || is_reply_subject(page, i)
}

/// How a thread's notes about its posts start: who started it (and when, on the same line),
/// when a post was last edited ([`is_thread_note`]). Not "Start date" alone: a course's start
/// date is its text.
const THREAD_NOTE_STARTS: &[&str] = &["thread starter", "last edited"];

/// Most bytes of a thread's note ([`is_thread_note`]).
const THREAD_NOTE_MAX: usize = 100;

/// A short block ([`THREAD_NOTE_MAX`] bytes at most) that starts as a thread's note does
/// ([`THREAD_NOTE_STARTS`]: "Thread starter … Start date Feb 20, 2010", "Last edited: Jul 5,
/// 2024"): when and by whom, not what the posts say (`a_threads_notes_are_cut`).
fn is_thread_note(page: &Page<'_, '_, '_>, i: usize) -> bool {
    page.r.span(i).is_some_and(|(a, b)| {
        let t = page.r.slice(a, b).trim();
        let head: String = t.chars().take(16).collect::<String>().to_lowercase();
        t.len() <= THREAD_NOTE_MAX && THREAD_NOTE_STARTS.iter().any(|s| head.starts_with(s))
    })
}

/// A post's number linking to itself: a link alone in its parent whose text is only "#" and
/// up to six digits ("#12"), not what the post says (`a_posts_number_link_is_cut`). Only a
/// link: a bare "#1" is an entry's rank badge, which the ranking's text may hold; alone: a
/// link in a sentence, "Pull request: #20713 by …", is a reference.
fn is_post_number(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let number = |t: String| {
        t.strip_prefix('#')
            .is_some_and(|n| (1..=6).contains(&n.len()) && n.bytes().all(|c| c.is_ascii_digit()))
    };
    page.tree.node(i).tag() == "a"
        && label(page, i).is_some_and(number)
        && page
            .tree
            .parent_of(i)
            .and_then(|p| label(page, p))
            .is_some_and(number)
}

/// Most bytes of a reply's subject line ([`is_reply_subject`]).
const SUBJECT_MAX: usize = 200;

/// A reply's subject line: a heading or a link whose text is one line of [`SUBJECT_MAX`] bytes
/// at most starting "Re:", the thread's title repeated over each post (phpBB's, a comment's
/// title), not what the post says (`a_replys_subject_line_is_cut`).
fn is_reply_subject(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let tag = page.tree.node(i).tag();
    if !(is_heading(tag) || tag == "a") {
        return false;
    }
    let Some((a, b)) = page.r.span(i).filter(|(a, b)| b - a <= SUBJECT_MAX) else {
        return false;
    };
    let t = page.r.slice(a, b).trim();
    !t.contains('\n')
        && t.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("re:"))
        && t.get(3..)
            .is_some_and(|rest| rest.starts_with(char::is_whitespace))
}

/// An element's whole text, trimmed and lower-cased, when it is short enough (64 bytes) to be a
/// control's or a notice's label; without the words it holds for screen readers only, which name
/// what a card's "Learn more" or "Read full article" leads to
/// (`a_cards_booking_and_detail_buttons_are_cut`).
fn label(page: &Page<'_, '_, '_>, i: usize) -> Option<String> {
    let r = page.r;
    let (a, b) = r.span(i).filter(|(a, b)| b - a <= 64)?;
    // What the element shows: its text without the words for screen readers only that a
    // link's label carries ("Read full article" + ": How to Choose Hiking Boots").
    let mut shown = String::new();
    let mut from = a;
    for &(x, y) in page.screen_reader_spans((a, b)) {
        shown.push_str(r.slice(from, x));
        from = y;
    }
    shown.push_str(r.slice(from, b));
    Some(shown.trim().to_lowercase())
}

/// Whether an inline element that is no link is a word or words of a sentence
/// ([`on_a_prose_line`]): "Click <b>Compare</b> to see both side by side", not a control's
/// label beside a card's title (`a_labels_words_inside_a_sentence_are_kept`). A link is a
/// pointer wherever it sits ("… Learn more" closing a card's blurb).
fn is_word_of_a_sentence(page: &Page<'_, '_, '_>, i: usize) -> bool {
    at(&page.counts, i).links == 0 && on_a_prose_line(page, i)
}

/// A listing's sort control, as it says the order it shows: "Sort by", "Sort: Best Match",
/// "Sort by: Price, low to high" (a whole label of [`SORT_LABEL_BYTES`] at most:
/// `a_listings_sort_control_is_cut`). A longer text that starts with "Sort" is a title.
fn is_sort_label(t: &str) -> bool {
    t.len() <= SORT_LABEL_BYTES && (t.starts_with("sort:") || t.starts_with("sort by"))
}

/// The longest label read as a sort control's ([`is_sort_label`]).
const SORT_LABEL_BYTES: usize = 40;

/// What a post's counts count ([`is_post_count`]), singular and plural.
const COUNTED: &[&str] = &[
    "reaction", "comment", "like", "view", "reply", "replies", "share", "upvote", "vote", "point",
    "answer",
];

/// A post's counts, as a listing's entry or a thread's post shows them under its title: "44
/// reactions", "27 comments", "1.2k views", "3 answers" (the whole label:
/// `a_posts_counts_are_cut`). Not its reading time, "7 min read": it dates the page's writing
/// (`a_reading_time_dates_the_page`), which the choice of the main text reads in the region.
fn is_post_count(t: &str) -> bool {
    let Some((n, what)) = t.split_once(' ') else {
        return false;
    };
    let number = n.trim_end_matches(['k', 'm']);
    let is_number = !number.is_empty()
        && number.starts_with(|c: char| c.is_ascii_digit())
        && number
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b',');
    let what = what.trim();
    is_number
        && COUNTED
            .iter()
            .any(|w| what == *w || what.strip_suffix('s') == Some(*w))
}

/// An element that only says what a shop's control does ([`CONTROL_LABELS`]), a listing's
/// sort control ([`is_sort_label`]) or a post's count ([`is_post_count`]).
fn is_control_label(page: &Page<'_, '_, '_>, i: usize) -> bool {
    // The sentence is asked last: it reads the element's line.
    (label(page, i).is_some_and(|t| {
        (t.len() <= 24 && CONTROL_LABELS.contains(&t.as_str()))
            || THREAD_LABELS.contains(&t.as_str())
            || is_sort_label(&t)
            || is_post_count(&t)
            || is_ad_label(&t)
    }) && !is_word_of_a_sentence(page, i))
        || is_thread_note(page, i)
        || is_post_number(page, i)
        || is_reply_subject(page, i)
}

/// The parts that a shop's recommendations heading ([`RECOMMENDATION_HEADINGS`]) heads: from a
/// short text that starts with such a heading, its nearest ancestor holding more than it; when
/// that is a bar of the heading and a few labels ([`BAR_LABELS_BYTES`]), the nearest ancestor
/// holding more than the bar. M8 cuts them, and M4 inside the article road's part.
pub(super) fn recommendations(page: &Page<'_, '_, '_>, shop: bool) -> Vec<bool> {
    let (tree, r) = (page.tree, page.r);
    let mut out = vec![false; tree.obs.nodes.len()];
    for &i in &r.order {
        let i = i as usize;
        if tree.node(i).text.is_none() {
            continue;
        }
        let Some((a, b)) = r.span(i) else { continue };
        let t = r.slice(a, b).trim();
        if t.len() > 80 || {
            let low = t.to_lowercase();
            !(RECOMMENDATION_HEADINGS.iter().any(|p| low.starts_with(p))
                || (shop && REVIEW_HEADINGS.iter().any(|p| low.starts_with(p))))
        } {
            continue;
        }
        // The section it heads: it starts the section's text (not a tab's label among others).
        let mut section = tree.ancestors(i).find(|&p| len(r, p) > 2 * (b - a));
        // A bar of the heading and its controls ("Similar Items", "Sponsored", "See all")
        // heads the section around it.
        if let Some(bar) = section.filter(|&s| len(r, s) < (b - a) + BAR_LABELS_BYTES) {
            section = tree
                .ancestors(bar)
                .skip(1)
                .find(|&p| len(r, p) > 2 * len(r, bar));
        }
        if let Some(s) = section.filter(|&s| {
            r.span(s)
                .is_some_and(|(c, d)| r.slice(c, d).trim_start().starts_with(t))
        }) {
            set(&mut out, s, true);
        }
    }
    out
}

/// Most bytes a recommendations heading's bar adds to the heading: its controls' labels
/// ("Sponsored", "See all"), not a section's entries ([`recommendations`]).
const BAR_LABELS_BYTES: usize = 40;

/// Fewest and most bytes of a block whose repetition is cut.
const REPEAT_MIN: usize = 40;
const REPEAT_MAX: usize = 4000;

/// A block of [`REPEAT_MIN`] to [`REPEAT_MAX`] bytes that repeats the text of an earlier
/// sibling (a carousel's cloned slides): `repeated_sibling_blocks_are_read_once`. Only a
/// sibling: a repeat elsewhere is often the page's own (a reply quoting a post, an interview's
/// question to each guest, an offer's terms under each offer). `seen` maps a text to its first
/// block.
fn repeats<'r>(
    page: &Page<'_, '_, 'r>,
    i: usize,
    (a, b): (usize, usize),
    seen: &mut std::collections::HashMap<&'r str, usize>,
) -> bool {
    let node = page.tree.node(i);
    if !super::page::is_block(crate::render::layout(node)) {
        return false;
    }
    let t = page.r.slice(a, b).trim();
    if t.len() < REPEAT_MIN || t.len() > REPEAT_MAX {
        return false;
    }
    let first = *seen.entry(t).or_insert(i);
    first != i && page.tree.parent_of(first) == page.tree.parent_of(i)
}

/// The share of a quote's long lines the region must have read before for the quote to be
/// read once (its own line naming whom it quotes, "… wrote: Sat Feb 24", is not).
const QUOTE_SEEN_SHARE: f64 = 0.75;

/// Whether an element is a quote: a `blockquote`, or a class word naming one (a forum's
/// `bbCodeBlock--quote`, `quote`).
fn is_quote(page: &Page<'_, '_, '_>, i: usize) -> bool {
    page.tree.node(i).tag() == "blockquote" || page.hints(i).contains("quote")
}

/// The lines of [`REPEAT_MIN`] bytes or more the region has read so far, for the quotes that
/// repeat them ([`Quoted::repeats`]).
pub(super) struct Quoted<'r> {
    /// The trimmed lines read before `upto`, and their lengths: a line of a length none of
    /// them has is not hashed to be looked up (a block inside one line of a page's worth of table
    /// cells is that long).
    seen: std::collections::HashSet<&'r str>,
    lengths: std::collections::HashSet<usize>,
    /// Where the lines read so far end in the rendered text.
    upto: usize,
    /// The cuts made so far, in order, and the first that may lie past `upto`.
    pub(super) cuts: Vec<(usize, usize)>,
    next: usize,
    /// The page's long lines ([`long_lines`]), read the first time a block asks.
    lines: Option<LineSums>,
    /// Whether `seen` holds a piece of a line (text read up to a cut, or up to a block, that
    /// starts or ends inside a line), which [`long_lines`] knows nothing of.
    pieces: bool,
}

/// Each line's bytes (trimmed) if it is [`REPEAT_MIN`] bytes or more, and again if an earlier
/// line of the text had its words: a line the region has read is an earlier line, so a block
/// whose lines never occurred before is no repeat, known from [`LineSums`] without reading it
/// (`repeats_are_judged_without_reading_each_nested_block`).
fn long_lines(text: &str) -> LineSums {
    let mut texts = std::collections::HashSet::new();
    LineSums::of(text, |line| {
        let t = line.trim();
        match t.len() >= REPEAT_MIN {
            true if !texts.insert(t) => (t.len(), t.len()),
            true => (t.len(), 0),
            false => (0, 0),
        }
    })
}

impl<'r> Quoted<'r> {
    pub(super) fn new(start: usize) -> Self {
        Quoted {
            seen: std::collections::HashSet::new(),
            lengths: std::collections::HashSet::new(),
            upto: start,
            cuts: Vec::new(),
            next: 0,
            lines: None,
            pieces: false,
        }
    }

    /// Whether [`Quoted::repeats`] can only answer no, from the sums alone (the lines wholly
    /// inside the block; its two end pieces read, so for a block inside one line the answer is
    /// the reading's): a copy with a long line no earlier line had,
    /// or fewer than [`COPY_BYTES`] of long lines, or a quote whose lines cannot reach
    /// [`QUOTE_SEEN_SHARE`].
    fn surely_new(&mut self, r: &'r Rendered, (a, b): (usize, usize), quote: bool) -> bool {
        let lines = self.lines.get_or_insert_with(|| long_lines(&r.text));
        let Some(((long, repeated), pieces)) = lines.split(&r.text, (a, b)) else {
            return false;
        };
        // Beside pieces of lines read, the sums undercount what the lines inside repeat.
        if self.pieces && long > 0 {
            return false;
        }
        let (mut all, mut seen) = (long, repeated);
        for piece in pieces {
            let piece = piece.trim();
            if piece.len() >= REPEAT_MIN {
                all += piece.len();
                if self.has_seen(piece) {
                    seen += piece.len();
                }
            }
        }
        if quote {
            seen == 0 || (seen as f64) < QUOTE_SEEN_SHARE * all as f64
        } else {
            seen < all || all < COPY_BYTES
        }
    }

    /// Whether a trimmed line was read before `upto`.
    fn has_seen(&self, line: &str) -> bool {
        self.lengths.contains(&line.len()) && self.seen.contains(line)
    }

    /// Reads the lines kept from `upto` to `to`, past the cuts.
    fn read_to(&mut self, r: &'r Rendered, to: usize) {
        let mut from = self.upto;
        while from < to {
            while self.cuts.get(self.next).is_some_and(|&(_, e)| e <= from) {
                self.next += 1;
            }
            let (until, resume) = match self.cuts.get(self.next) {
                Some(&(c, e)) if c < to => (c.max(from), e),
                _ => (to, to),
            };
            let text = r.slice(from, until);
            let whole_start = from == 0 || r.text.as_bytes().get(from - 1) == Some(&b'\n');
            let whole_end = r.text.as_bytes().get(until).is_none_or(|&c| c == b'\n');
            let count = text.split('\n').count();
            for (k, line) in text.split('\n').enumerate() {
                let line = line.trim();
                if line.len() >= REPEAT_MIN {
                    self.pieces |= (k == 0 && !whole_start) || (k + 1 == count && !whole_end);
                    self.seen.insert(line);
                    self.lengths.insert(line.len());
                }
            }
            from = resume;
        }
        self.upto = self.upto.max(from);
    }

    /// Whether a block only repeats lines read earlier: a quote, a reply quoting a post above
    /// it, whose words the thread already holds (`a_quote_of_an_earlier_post_is_read_once`; only
    /// a quote with a line of [`REPEAT_MIN`] bytes or more, its short lines, "… said:", go with
    /// it), or a second copy of the page's content, a block whose long lines, [`COPY_BYTES`] or
    /// more, were all read above it (a page that carries its article, or its product, once for
    /// small screens and once for large: `a_second_copy_of_the_content_is_read_once`; a shorter
    /// repeat is often the page's own, a notice under each webcam, one code sample in each
    /// language's tab).
    pub(super) fn repeats(
        &mut self,
        page: &Page<'_, '_, 'r>,
        i: usize,
        (a, b): (usize, usize),
    ) -> bool {
        let quote = is_quote(page, i);
        if !quote
            && (b - a < COPY_BYTES
                || !super::page::is_block(crate::render::layout(page.tree.node(i))))
        {
            return false;
        }
        self.read_to(page.r, a);
        !self.surely_new(page.r, (a, b), quote) && self.read_repeats(page.r, (a, b), quote)
    }

    /// [`Quoted::repeats`] for a block, by reading its lines.
    fn read_repeats(&self, r: &Rendered, (a, b): (usize, usize), quote: bool) -> bool {
        let (mut all, mut seen) = (0, 0);
        for line in r.slice(a, b).lines().map(str::trim) {
            if line.len() >= REPEAT_MIN {
                all += line.len();
                if self.has_seen(line) {
                    seen += line.len();
                } else if !quote {
                    // A copy repeats every long line: the first new one settles it.
                    return false;
                }
            }
        }
        if quote {
            seen > 0 && seen as f64 >= QUOTE_SEEN_SHARE * all as f64
        } else {
            all >= COPY_BYTES
        }
    }
}

/// Fewest bytes of long lines in a block read a second time, for it to be read once as a copy
/// of the content ([`Quoted::repeats`]).
const COPY_BYTES: usize = 1000;

/// Most bytes of text per control in a form of controls.
const FORM_BYTES_PER_CONTROL: usize = 300;

/// A form of controls (a search box, a sign-up, a reply box): it shows controls and little text
/// around them ([`FORM_BYTES_PER_CONTROL`] a control at most). A form the person sees no control
/// in is a wrapper of content (a thread whose every post is a form: `a_form_that_wraps_posts_is_content`).
fn is_controls(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let c = at(&page.counts, i);
    c.inputs > 0 && len(page.r, i) <= FORM_BYTES_PER_CONTROL * c.inputs
}

/// Fewest links that make a menu.
const MENU_MIN_LINKS: usize = 3;
/// Fewest bytes of the longest link that make it an entry's title, not a menu's item.
const ENTRY_TITLE_BYTES: usize = 60;
/// Fewest bytes of text outside links in a listing's entry (its blurb).
const ENTRY_MIN_PLAIN: usize = 20;
/// Most bytes of link text per link in a menu.
const MENU_LINK_BYTES: usize = 24;

/// A menu: a block of at least [`MENU_MIN_LINKS`] short links ([`MENU_LINK_BYTES`] on average)
/// that is nearly all link (`menus_are_cut_from_the_region`); not a product's card of links
/// ([`is_card_of_links`]), nor an entry under a linked headline ([`holds_a_linked_headline`]),
/// nor a listing's entry, a block
/// with a linked heading or a link of [`ENTRY_TITLE_BYTES`] or more (its title) and
/// [`ENTRY_MIN_PLAIN`] bytes or more of text outside its links
/// (`a_listings_entries_with_linked_titles_are_not_menus`,
/// `a_listings_entries_with_long_linked_titles_are_not_menus`).
fn is_menu(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let c = at(&page.counts, i);
    !is_card_of_links(&c)
        && ((c.linked_headings == 0 && c.longest_link < ENTRY_TITLE_BYTES)
            || len(page.r, i).saturating_sub(c.links) < ENTRY_MIN_PLAIN)
        && c.anchors >= MENU_MIN_LINKS
        && c.links <= MENU_LINK_BYTES * c.anchors
        && page.density(i) >= 0.7
        && !(c.linked_headings > 0 && holds_a_linked_headline(page, i))
}

/// Fewest bytes of a linked heading that is an entry's headline ([`holds_a_linked_headline`]).
const HEADLINE_BYTES: usize = 25;

/// Whether a heading under `i` that holds a link reads [`HEADLINE_BYTES`] or more: an entry's
/// headline ("Data Saturday Chicago 2026"), where a menu's column heads its links with a word or
/// two ("Topics", "Men's shoes": `a_listings_entries_with_linked_headlines_are_not_menus`).
fn holds_a_linked_headline(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let held = page.headlines.get_or_init(|| linked_headlines(page));
    at(held, i)
}

/// [`holds_a_linked_headline`] for every element, from the leaves up: a heading holds one when
/// it is one itself (what is inside a heading is not asked apart), another element when a child
/// does. One pass, where a walk down from each element costs the page's size times its depth.
fn linked_headlines(page: &Page<'_, '_, '_>) -> Vec<bool> {
    let tree = page.tree;
    let mut held = vec![false; tree.obs.nodes.len()];
    for n in tree.top_down().into_iter().rev() {
        let own = if is_heading(tree.node(n).tag()) {
            at(&page.counts, n).links > 0 && len(page.r, n) >= HEADLINE_BYTES
        } else {
            tree.node(n).kids.iter().any(|&k| at(&held, k as usize))
        };
        set(&mut held, n, own);
    }
    held
}

/// Most links of one product's card ([`is_card_of_links`]).
const CARD_MAX_LINKS: usize = 8;

/// Whether a block of links is one product's card: [`CARD_MAX_LINKS`] links at most, showing
/// one price or two (its price, and its price before a sale), its title, maker and format
/// linked beside it; a menu of price ranges shows a price in every link
/// (`a_listings_cards_of_links_are_not_menus`).
fn is_card_of_links(c: &Counts) -> bool {
    (1..=2).contains(&c.prices) && c.anchors <= CARD_MAX_LINKS
}

/// Fewest bytes of the paragraph beside a headed list ([`is_headed_list`]).
const BESIDE_PROSE_BYTES: usize = 80;

/// Whether a block of short links is a list the page's text is made of: it comes right under
/// its own heading (the heading, or a heading's wrapper that starts with it, is the block's
/// previous shown sibling, or the previous of the wrapper the block fills alone), a paragraph of
/// [`BESIDE_PROSE_BYTES`] or more and little link text stands beside it, and its links lead
/// away, not to the page's own headings (a table of contents, `#…`). A wiki's list of entries
/// by letter, an index's sections; a menu stands in the page's furniture, under no heading or
/// beside no prose (`a_list_under_its_heading_beside_prose_is_not_a_menu`).
fn is_headed_list(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let tree = page.tree;
    let mut block = i;
    let heading = loop {
        if let Some(prev) = previous_shown(page, block) {
            break prev;
        }
        match tree.parent_of(block) {
            Some(p) if len(page.r, p) == len(page.r, block) => block = p,
            _ => return false,
        }
    };
    let starts_with_heading = is_heading(tree.node(heading).tag())
        || first_shown(page, heading).is_some_and(|k| is_heading(tree.node(k).tag()));
    let beside_prose = tree
        .parent_of(block)
        .is_some_and(|p| shown_kids(page, p).any(|k| is_lead(page, k)));
    starts_with_heading && beside_prose && !first_link_is_in_page(tree, i)
}

/// Whether a block of short links is the page's lists under their heading ([`is_headed_list`],
/// [`is_headed_section`]); the blocks of links inside it are its entries, each list under its
/// own letter (`a_section_of_lists_under_its_heading_and_lead_is_not_a_menu`).
fn is_listed(page: &Page<'_, '_, '_>, i: usize) -> bool {
    is_menu(page, i) && (is_headed_list(page, i) || is_headed_section(page, i))
}

/// Whether a block of short links is a section of the page's text: its first shown child is a
/// heading (or starts with one), and a paragraph of [`BESIDE_PROSE_BYTES`] or more with little
/// link text stands among its children, under it the lists its heading and paragraph introduce
/// (a wiki's category page: "Pages in category …", how many there are, then the pages by
/// letter: `a_section_of_lists_under_its_heading_and_lead_is_not_a_menu`).
fn is_headed_section(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let tree = page.tree;
    let starts_with_heading = first_shown(page, i).is_some_and(|k| {
        is_heading(tree.node(k).tag())
            || first_shown(page, k).is_some_and(|j| is_heading(tree.node(j).tag()))
    });
    starts_with_heading && shown_kids(page, i).any(|k| is_lead(page, k))
}

/// Whether `k` is a paragraph of [`BESIDE_PROSE_BYTES`] or more with little link text.
fn is_lead(page: &Page<'_, '_, '_>, k: usize) -> bool {
    page.tree.node(k).tag() == "p" && len(page.r, k) >= BESIDE_PROSE_BYTES && page.density(k) < 0.5
}

/// The element children of `p` that show text, in order.
fn shown_kids<'a>(page: &'a Page<'_, '_, '_>, p: usize) -> impl Iterator<Item = usize> + 'a {
    page.tree
        .node(p)
        .kids
        .iter()
        .map(|&k| k as usize)
        .filter(move |&k| {
            page.tree.node(k).is_element()
                && page
                    .r
                    .span(k)
                    .is_some_and(|(a, b)| !page.r.slice(a, b).trim().is_empty())
        })
}

/// The shown element sibling just before `i`.
fn previous_shown(page: &Page<'_, '_, '_>, i: usize) -> Option<usize> {
    let p = page.tree.parent_of(i)?;
    shown_kids(page, p).take_while(|&k| k != i).last()
}

/// The first shown element child of `i`.
fn first_shown(page: &Page<'_, '_, '_>, i: usize) -> Option<usize> {
    shown_kids(page, i).next()
}

/// Whether the first link with an address under `i` points into the page (`#…`).
fn first_link_is_in_page(tree: &Tree<'_>, i: usize) -> bool {
    let mut stack = vec![i];
    while let Some(n) = stack.pop() {
        let node = tree.node(n);
        if let Some(href) = node.attr("href").filter(|_| node.tag() == "a") {
            return href.trim_start().starts_with('#');
        }
        stack.extend(node.kids.iter().rev().map(|&k| k as usize));
    }
    false
}

/// The page's chrome by its tag or role: navigation, a banner, a footer (not a bare `header`,
/// which page builders name their sections with).
fn is_chrome(page: &Page<'_, '_, '_>, i: usize) -> bool {
    let node = page.tree.node(i);
    matches!(node.tag(), "nav" | "footer")
        || node.attr("role").is_some_and(|v| {
            matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "banner" | "navigation" | "contentinfo"
            )
        })
}

/// Fewest bytes of the region's text, its cuts made, that are more than a title and a line or two
/// over what the cuts took ([`text`]).
const REGION_MIN_BYTES: usize = 200;

/// The region's text: `root`'s rendered text without the cut parts, and the ranges of the rendered
/// text it keeps, in order. When the cuts leave under [`REGION_MIN_BYTES`] (a heading, a line),
/// the page's content is a block of links (a catalog's index of categories, a shop's grid of
/// them): it is read again with the menus outside the page's chrome kept
/// (`a_page_made_of_a_block_of_links_keeps_it`), and the parts there named "related" that hold
/// more than the first reading kept (a shop's grid built from a theme's related-products block:
/// `a_listing_whose_only_grid_is_named_related_keeps_it`; not a product's few related tiles
/// under its short description). `recs`: the page's [`recommendations`].
pub(super) fn text(
    page: &Page<'_, '_, '_>,
    root: usize,
    buy: BuyControls,
    recs: &[bool],
) -> (String, Vec<(usize, usize)>, usize) {
    let read = text_with(page, root, buy, recs, None);
    let first = read.0.trim().len();
    if first >= REGION_MIN_BYTES {
        return read;
    }
    text_with(page, root, buy, recs, Some(first))
}

/// For each element, whether it or an ancestor is the page's chrome ([`is_chrome`]) or its
/// banner ([`is_banner`]): one pass in document order, a parent before its children, so a page
/// nested thousands deep costs no more than a flat one.
fn in_chrome(page: &Page<'_, '_, '_>) -> Vec<bool> {
    let mut out = vec![false; page.tree.obs.nodes.len()];
    for &i in &page.r.order {
        let i = i as usize;
        let inherited = page.tree.parent_of(i).is_some_and(|p| at(&out, p));
        set(
            &mut out,
            i,
            inherited || is_chrome(page, i) || is_banner(page, i),
        );
    }
    out
}

/// The page's banner: a `header` that heads no section and no entry of several ([`heads_a_section`],
/// [`in_article`]).
fn is_banner(page: &Page<'_, '_, '_>, i: usize) -> bool {
    page.tree.node(i).tag() == "header" && !heads_a_section(page, i) && !in_article(page, i)
}

/// Most class and id words of the kept parts around an element ([`is_cut`]'s `kept_words`).
const KEPT_WORDS_MAX: usize = 64;

/// The kept parts' words with those of one more inside them (`h`), each once, the nearest
/// [`KEPT_WORDS_MAX`] (a page nesting a kept part in a kept part thousands deep would otherwise
/// carry a longer string at every level).
fn kept_words_with(kept: &str, h: &str) -> String {
    let mut words: Vec<&str> = kept.split_ascii_whitespace().collect();
    for w in h.split_ascii_whitespace() {
        if !words.contains(&w) {
            words.push(w);
        }
    }
    let nearest = words.len().saturating_sub(KEPT_WORDS_MAX);
    words.get(nearest..).unwrap_or_default().join(" ")
}

/// [`text`]'s one reading; the second (`second`: the bytes the first kept) keeps the menus
/// outside the page's chrome, and the parts there named "related" that hold more than that.
fn text_with(
    page: &Page<'_, '_, '_>,
    root: usize,
    buy: BuyControls,
    recs: &[bool],
    second: Option<usize>,
) -> (String, Vec<(usize, usize)>, usize) {
    let keep_menus = second.is_some();
    let (shop, one) = (buy.sells(), buy.sells_one());
    let Some((start, end)) = page.r.span(root) else {
        return (String::new(), Vec::new(), 0);
    };
    // A cut never takes most of the region: a page wrapped whole in a form (ASP.NET) or a
    // wrapper whose class says "modal" is still the page; the page's chrome (its menu, its
    // footer) is cut however big, as long as a paragraph's bytes of the region remain.
    let chrome = if keep_menus {
        in_chrome(page)
    } else {
        Vec::new()
    };
    let carousels = if one { carousels(page) } else { Vec::new() };
    let mut seen = std::collections::HashMap::new();
    let mut repeated = 0;
    let mut quoted = Quoted::new(start);
    // The nearest part kept from a cut by its prose for each element (preorder: a parent
    // first), and the class and id words of the kept parts around it, nearest last.
    let mut shield: Vec<usize> = vec![usize::MAX; page.tree.obs.nodes.len()];
    let mut shield_words: std::collections::HashMap<usize, String> =
        std::collections::HashMap::new();
    // Whether an element is, or is inside, a block of links kept as the page's lists under
    // their heading ([`is_listed`]): the groups of links inside it are its entries, not menus.
    let mut listed = vec![false; page.tree.obs.nodes.len()];
    let (text, kept) = text_without(page, root, |i, (a, b)| {
        let in_list = page.tree.parent_of(i).is_some_and(|p| at(&listed, p)) || is_listed(page, i);
        set(&mut listed, i, in_list);
        let inherited = page
            .tree
            .parent_of(i)
            .map_or(usize::MAX, |p| at(&shield, p));
        let kept_words = shield_words.get(&inherited).map_or("", String::as_str);
        let prose = holds_the_prose(page, i, (a, b), end - start);
        let big = 2 * (b - a) > end - start || prose;
        let named = at(recs, i)
            || {
                let cut_menus = !keep_menus || at(&chrome, i);
                let cut_related = cut_menus || second.is_some_and(|first| b - a <= first);
                is_cut(
                    page,
                    i,
                    shop,
                    kept_words,
                    cut_menus && !in_list,
                    cut_related,
                )
            }
            || (one && at(&carousels, i) && are_product_cards(page, i));
        let cut = ((!big
            || (is_chrome(page, i) && (end - start) - (b - a) >= MIN_PARAGRAPH_BYTES))
            && named)
            || (shop && are_reviews(page, i));
        if prose && named && !cut {
            let words = kept_words_with(kept_words, page.hints(i));
            shield_words.insert(i, words);
            set(&mut shield, i, i);
        } else {
            set(&mut shield, i, inherited);
        }
        if !cut && (repeats(page, i, (a, b), &mut seen) || quoted.repeats(page, i, (a, b))) {
            repeated += b - a;
            quoted.cuts.push((a, b));
            return true;
        }
        if cut {
            quoted.cuts.push((a, b));
        }
        cut
    });
    (tidy_breaks(&text), kept, repeated)
}

/// The share of the region a part whose text is prose must hold to be kept from a cut.
const PROSE_PART_SHARE: f64 = 0.4;

/// Whether a part holds [`PROSE_PART_SHARE`] of the region or more and its text is mostly lines
/// of prose ([`LONG_LINE_SHARE`]): a page's body of sections written as paragraphs, whatever
/// its wrapper's class says (`promo-container`), not a signature's or a menu's short lines
/// (`a_part_of_prose_holding_much_of_the_region_is_kept`), nor teasers of other pages, entries
/// whose headings link away, [`TEASER_HEADINGS`] or more (a story's "You may also like" cards:
/// `teasers_of_other_posts_are_cut_however_much_prose`).
fn holds_the_prose(
    page: &Page<'_, '_, '_>,
    i: usize,
    (a, b): (usize, usize),
    region: usize,
) -> bool {
    (b - a) as f64 >= PROSE_PART_SHARE * region as f64
        && at(&page.counts, i).linked_headings < TEASER_HEADINGS
        && page.long_line_share_of((a, b)) >= LONG_LINE_SHARE
}

/// Fewest linked headings that make a part of prose teasers of other pages ([`holds_the_prose`]).
const TEASER_HEADINGS: usize = 2;

#[cfg(test)]
mod side_part_tests {
    use super::names_side_part;

    #[test]
    fn side_part_words() {
        for word in [
            "p-body-sidebar",
            "left-sidebar",
            "sidebar-second",
            "sidebar",
            "sidebars",
            "site-footer",
            "footer-links",
            "main-menu",
            "navbar",
            "site-nav",
            "topbar",
        ] {
            assert!(names_side_part(word), "{word}");
        }
        // Layouts that have a sidebar, and words that only mention one.
        for word in [
            "has-sidebar",
            "with-sidebar",
            "one-sidebar",
            "content-with-sidebar-wrp",
            "p-body-main--withsidebar",
            "uix_sidebarnav",
            "has-footer",
            "footerless",
            "menuitem",
            "navigator",
        ] {
            assert!(!names_side_part(word), "{word}");
        }
    }
}

#[cfg(test)]
mod post_count_tests {
    use super::is_post_count;

    #[test]
    fn a_posts_counts_are_told_from_other_labels() {
        for t in [
            "44 reactions",
            "1 reaction",
            "27 comments",
            "1.2k views",
            "1,024 views",
            "12 replies",
            "1 reply",
            "3 answers",
            "188 points",
        ] {
            assert!(is_post_count(t), "{t}");
        }
        for t in [
            "7 min read",
            "comments",
            "views 12",
            "k views",
            "12 reviews",
            "3 answers to common questions",
            "",
        ] {
            assert!(!is_post_count(t), "{t}");
        }
    }
}

#[cfg(test)]
mod squeezed_word_tests {
    use super::{after_word, holds_squeezed};

    #[test]
    fn a_word_is_found_across_its_dashes_and_underscores() {
        for (t, word) in [
            ("tooltip", "tooltip"),
            ("tool-tip__content", "tooltip"),
            ("c-tool_tip", "tooltip"),
            ("pop-up-trigger", "popup"),
            ("x-modal", "modal"),
        ] {
            assert!(holds_squeezed(t, word), "{t} {word}");
        }
        for (t, word) in [
            ("tool", "tooltip"),
            ("tip-tool", "tooltip"),
            ("tooltipp", "tooltips"),
            ("", "modal"),
            ("modal", ""),
        ] {
            assert!(!holds_squeezed(t, word), "{t} {word}");
        }
        // What follows the word is read from the squeezed token, as before.
        let rest: Vec<String> =
            after_word("a tool-tip__content b modal-trigger", "tooltip").collect();
        assert_eq!(rest, ["content"]);
        let rest: Vec<String> = after_word("pop-up-btn popup", "popup").collect();
        assert_eq!(rest, ["btn", ""]);
    }
}

#[cfg(test)]
mod long_lines_tests {
    use super::Quoted;
    use crate::render::Rendered;
    use proptest::prelude::*;

    fn rendered(text: String) -> Rendered {
        Rendered {
            text,
            range: Vec::new(),
            anchor_pos: Vec::new(),
            order: Vec::new(),
            preserved: Vec::new(),
        }
    }

    /// Lines that repeat, long and short, some padded, some of several characters' bytes, some
    /// the start or the end of another.
    fn lines() -> impl Strategy<Value = String> {
        let line = prop::sample::select(vec![
            "",
            "  ",
            "short",
            "A long line of prose that the region reads and a quote may repeat.",
            "  A long line of prose that the region reads and a quote may repeat.  ",
            "Another long line, écrit en français, with a few more bytes each — ok.",
            "A third long line that only some pages hold, forty bytes or more.",
            // A piece of a longer line, read up to a block inside that line, is one of these.
            "A long line of prose that the region reads",
            "the region reads and a quote may repeat.",
        ]);
        // Half the texts carry their lines twice: a copy of the content, which a block repeats.
        (prop::collection::vec(line, 0..30), any::<bool>()).prop_map(|(mut l, twice)| {
            if twice {
                l.extend(l.clone());
            }
            l.join("\n")
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 8192, ..ProptestConfig::default() })]

        /// What the sums say surely is no repeat, the lines read say is none: the sums only
        /// spare the reading (`repeats_are_judged_without_reading_each_nested_block`).
        #[test]
        fn repeats_are_judged_without_reading_each_nested_block(
            text in lines(),
            spans in prop::collection::vec((0usize..4500, 0usize..4500, any::<bool>()), 1..16),
        ) {
            let r = rendered(text);
            let len = r.text.len();
            let mut spans: Vec<(usize, usize, bool)> = spans
                .into_iter()
                .map(|(a, b, q)| {
                    let (mut a, mut b) = (a % (len + 1), b % (len + 1));
                    while !r.text.is_char_boundary(a) { a -= 1; }
                    while !r.text.is_char_boundary(b) { b -= 1; }
                    (a.min(b), a.max(b), q)
                })
                .collect();
            spans.sort();
            let mut quoted = Quoted::new(0);
            for (a, b, quote) in spans {
                quoted.read_to(&r, a);
                let repeats = quoted.read_repeats(&r, (a, b), quote);
                if quoted.surely_new(&r, (a, b), quote) {
                    prop_assert!(!repeats, "{a}..{b} quote {quote}");
                }
                // A repeat is cut, as the region cuts it: what follows reads past it.
                if repeats && quoted.cuts.last().is_none_or(|&(_, e)| e <= a) {
                    quoted.cuts.push((a, b));
                }
            }
        }
    }
}

#[cfg(test)]
mod headline_tests {
    use super::{holds_a_linked_headline, is_heading, HEADLINE_BYTES};
    use crate::main_text::page::{at, len, survey};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Read for the page from the leaves up, whether an element holds a linked headline is
        /// what a walk down from it says (`a_linked_headline_is_found_without_a_walk_down`).
        #[test]
        fn a_linked_headline_is_found_without_a_walk_down(obs in crate::proptests::observations()) {
            let tree = obs.check().unwrap();
            let r = crate::render::render(&tree, &[]);
            let page = survey(&tree, &r);
            for i in 0..obs.nodes.len() {
                let mut stack = vec![i];
                let mut walked = false;
                while let Some(n) = stack.pop() {
                    if is_heading(tree.node(n).tag()) {
                        if at(&page.counts, n).links > 0 && len(&r, n) >= HEADLINE_BYTES {
                            walked = true;
                            break;
                        }
                        continue;
                    }
                    stack.extend(tree.node(n).kids.iter().map(|&k| k as usize));
                }
                prop_assert_eq!(holds_a_linked_headline(&page, i), walked, "node {}", i);
            }
        }
    }
}
