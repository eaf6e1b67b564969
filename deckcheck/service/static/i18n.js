// deckcheck deck builder: the interface in English, Japanese and Simplified Chinese.
// The language comes from the browser (navigator.languages) unless the user picked one in the
// header's switcher (kept in localStorage). The page is written in English; every text node
// and placeholder/title/aria-label/label attribute whose English text is in the catalogue
// below is shown translated, also when builder.js adds it later (a MutationObserver), and
// switching back to English restores it. Card names come from the card documents' names.
"use strict";

(function () {
  const LANGS = { en: "English", ja: "日本語", zh: "简体中文" };
  const HTML_LANG = { en: "en", ja: "ja", zh: "zh-CN" };
  // English text -> [Japanese, Chinese]
  const TEXT = {
    "deckcheck deck builder": ["deckcheck デッキビルダー", "deckcheck 卡组构建器"],
    "deck builder": ["デッキビルダー", "卡组构建器"],
    "Region": ["地域", "地区"],
    "Format": ["フォーマット", "赛制"],
    "(the region's format)": ["（地域のフォーマット）", "（该地区的赛制）"],
    "Formats": ["フォーマット", "赛制"],
    "Eras": ["時代", "时代"],
    "Event date": ["大会の日付", "比赛日期"],
    "Empty deck": ["デッキが空です", "卡组为空"],
    "LEGAL": ["使用可", "合规"],
    "ILLEGAL": ["使用不可", "不合规"],
    "Cards": ["カード", "卡片"],
    "Card search": ["カード検索", "卡片搜索"],
    "Search cards": ["カードを検索", "搜索卡片"],
    "Search: Ash Blossom, 灰流うらら, 灰流丽…": ["検索：灰流うらら、Ash Blossom、灰流丽…", "搜索：灰流丽、Ash Blossom、灰流うらら…"],
    "Name language": ["名前の言語", "卡名语言"],
    "any language": ["すべての言語", "任意语言"],
    "Click a card to add it (Extra Deck monsters go to the Extra Deck); \"Side\" adds it to the Side Deck.":
      ["カードをクリックで追加（エクストラデッキのモンスターはエクストラデッキへ）。「サイド」でサイドデッキに追加。",
       "点击卡片即可加入（额外卡组怪兽进入额外卡组）；“副卡组”加入副卡组。"],
    "No card matches.": ["一致するカードがありません。", "没有匹配的卡片。"],
    "Side": ["サイド", "副卡组"],
    "Add to the Side Deck": ["サイドデッキに追加", "加入副卡组"],
    "Add to the Main Deck": ["メインデッキに追加", "加入主卡组"],
    "Add to the Extra Deck": ["エクストラデッキに追加", "加入额外卡组"],
    "Deck": ["デッキ", "卡组"],
    "Main Deck": ["メインデッキ", "主卡组"],
    "Extra Deck": ["エクストラデッキ", "额外卡组"],
    "Side Deck": ["サイドデッキ", "副卡组"],
    "Clear deck": ["デッキを空にする", "清空卡组"],
    "Remove one": ["1枚減らす", "减少一张"],
    "Add one": ["1枚増やす", "增加一张"],
    "Move one to the side deck": ["1枚サイドデッキへ", "移一张到副卡组"],
    "Move one to the main deck": ["1枚メインデッキへ", "移一张到主卡组"],
    "Move one to the extra deck": ["1枚エクストラデッキへ", "移一张到额外卡组"],
    "→ Side": ["→ サイド", "→ 副卡组"],
    "→ Deck": ["→ デッキ", "→ 卡组"],
    "Legality": ["使用可否", "合规性"],
    "Add cards to check the deck.": ["カードを追加するとデッキを確認します。", "加入卡片后检查卡组。"],
    "Import / export": ["読み込み・書き出し", "导入 / 导出"],
    "Paste a .ydk file, a ydke:// URL or a text list, then Import.":
      [".ydk ファイル、ydke:// URL またはテキストリストを貼り付けて「読み込む」。",
       "粘贴 .ydk 文件、ydke:// URL 或文本卡表，然后点“导入”。"],
    "Import": ["読み込む", "导入"],
    "Export ydk": ["ydk で書き出す", "导出 ydk"],
    "Export ydke": ["ydke で書き出す", "导出 ydke"],
    "Export text": ["テキストで書き出す", "导出文本"],
    "Paste a deck first.": ["先にデッキを貼り付けてください。", "请先粘贴卡组。"],
    "Opening-hand odds": ["初手の確率", "起手概率"],
    "Pick Main Deck cards for each category; the odds of the hand you ask for, by turn, going first and second.":
      ["カテゴリごとにメインデッキのカードを選ぶと、先攻・後攻のターンごとの確率を表示します。",
       "为每个类别选择主卡组的卡；显示先攻和后攻每回合的概率。"],
    "new category (e.g. starter)": ["新しいカテゴリ（例：初動）", "新类别（例如：起手）"],
    "New category name": ["新しいカテゴリ名", "新类别名称"],
    "Add category": ["カテゴリを追加", "添加类别"],
    "No category yet.": ["カテゴリはまだありません。", "还没有类别。"],
    "Tick cards in a category.": ["カテゴリのカードにチェックを入れてください。", "请在类别中勾选卡片。"],
    "The Main Deck is empty.": ["メインデッキが空です。", "主卡组为空。"],
    "at least 1": ["1枚以上", "至少1张"],
    "none": ["0枚", "0张"],
    "Remove": ["削除", "删除"],
    "by turn": ["ターン", "回合"],
    "Exact odds.": ["厳密な確率。", "精确概率。"],
    "Odds by turn": ["ターンごとの確率", "每回合概率"],
    "Going": ["先攻・後攻", "先后攻"],
    "first and second": ["先攻と後攻", "先攻和后攻"],
    "first": ["先攻", "先攻"],
    "second": ["後攻", "后攻"],
    "Turns": ["ターン数", "回合数"],
    "Sample hands": ["サンプルの手札", "示例手牌"],
    "Open as a new deck": ["新しいデッキとして開く", "作为新卡组打开"],
    "Keep my deck": ["自分のデッキのまま", "保留我的卡组"],
    "This link holds another deck. Your deck stays as it is unless you open the link.":
      ["このリンクには別のデッキがあります。リンクを開かない限り、あなたのデッキはそのままです。",
       "此链接包含另一个卡组。除非打开链接，你的卡组保持不变。"],
    "Opened the shared deck. Undo brings your deck back.":
      ["共有されたデッキを開きました。「元に戻す」で自分のデッキに戻ります。",
       "已打开共享的卡组。“撤销”可恢复你的卡组。"],
    "deckcheck · data as of": ["deckcheck · データ時点", "deckcheck · 数据截至"],
    "unknown": ["不明", "未知"],
    "Language": ["言語", "语言"],
    // the print view
    "Print decklist": ["デッキリストを印刷", "打印卡组表"],
    "Deck Registration Sheet": ["デッキ登録用紙", "卡组登记表"],
    "Player name": ["氏名", "姓名"],
    "Player ID": ["プレイヤーID", "玩家编号"],
    "Event": ["大会名", "比赛名称"],
    "Date": ["日付", "日期"],
    "Deck name": ["デッキ名", "卡组名称"],
    "Monster Cards": ["モンスターカード", "怪兽卡"],
    "Spell Cards": ["魔法カード", "魔法卡"],
    "Trap Cards": ["罠カード", "陷阱卡"],
    "Other / unknown": ["その他・不明", "其他・未知"],
    "Qty": ["枚数", "数量"],
    "Card name": ["カード名", "卡名"],
    "Total": ["合計", "合计"],
    "Deck totals": ["デッキ枚数", "卡组张数"],
    "Print": ["印刷", "打印"],
    "Download PDF (with QR code)": ["PDF をダウンロード（QR コード付き）", "下载 PDF（带二维码）"],
    "Close": ["閉じる", "关闭"],
    "The deck as a ydke:// URL": ["デッキの ydke:// URL", "卡组的 ydke:// URL"],
    "* no name in this language: the English name is shown":
      ["* 日本語名なし：英語名を表示", "* 无中文卡名：显示英文卡名"],
  };
  // templated English -> [pattern, Japanese, Chinese] ($1, $2: the parts matched)
  const PATTERNS = [
    [/^No problem: legal in (.+) on (.+)\.$/, "問題なし：$2 に $1 で使用可。", "没有问题：$2 在 $1 中合规。"],
    [/^Cannot check: (.*)$/, "確認できません：$1", "无法检查：$1"],
    [/^Cannot import: (.*)$/, "読み込めません：$1", "无法导入：$1"],
    [/^Cannot export: (.*)$/, "書き出せません：$1", "无法导出：$1"],
    [/^Cannot compute odds: (.*)$/, "確率を計算できません：$1", "无法计算概率：$1"],
    [/^Formats: (.*)$/, "フォーマット：$1", "赛制：$1"],
    [/^Remove one (.+)$/, "$1 を1枚減らす", "减少一张 $1"],
    [/^Add one (.+)$/, "$1 を1枚増やす", "增加一张 $1"],
    [/^What the hand needs of (.+)$/, "$1 について手札に必要なもの", "手牌对 $1 的要求"],
    [/^(.+) \(going first\)$/, "$1（先攻）", "$1（先攻）"],
    [/^(.+) \(going second\)$/, "$1（後攻）", "$1（后攻）"],
    [/^Simulated \((\d+) games per going, 95% intervals in the API\)\.$/,
      "シミュレーション（先攻・後攻それぞれ $1 回、95% 区間は API に）。",
      "模拟（先攻和后攻各 $1 局，95% 区间见 API）。"],
    [/^(.+) — solid: first, dashed: second$/, "$1 — 実線：先攻、破線：後攻", "$1 — 实线：先攻，虚线：后攻"],
    [/^(\S+) \(fingerprint (\w+)\)$/, "$1（フィンガープリント $2）", "$1（指纹 $2）"],
    [/^Legal on (\S+), list (.+)$/, "$1 時点で使用可（リスト $2）", "$1 合规（禁限卡表 $2）"],
    [/^Legal on (\S+)$/, "$1 時点で使用可", "$1 合规"],
    [/^Not legal on (\S+): (\d+) errors?$/, "$1 時点で使用不可：エラー $2 件", "$1 不合规：$2 个错误"],
  ];
  const ATTRS = ["placeholder", "title", "aria-label", "label"];
  const KEY = "deckcheck.lang";
  const original = new WeakMap();  // text node -> {english, shown}
  const originalAttr = new WeakMap();  // element -> {attribute: {english, shown}}
  const listeners = [];

  function pick() {
    try {
      const saved = localStorage.getItem(KEY);
      if (saved && LANGS[saved]) return saved;
    } catch (e) { /* storage disabled */ }
    for (const tag of navigator.languages || [navigator.language || "en"]) {
      const base = String(tag).toLowerCase().slice(0, 2);
      if (base === "ja" || base === "zh" || base === "en") return base;
    }
    return "en";
  }

  let lang = pick();

  function translate(english) {
    if (lang === "en") return english;
    const column = lang === "ja" ? 0 : 1;
    const core = english.trim();
    if (!core) return english;
    const lead = english.slice(0, english.indexOf(core));
    const tail = english.slice(lead.length + core.length);
    const hit = TEXT[core];
    if (hit) return lead + hit[column] + tail;
    for (const [pattern, ja, zh] of PATTERNS) {
      if (pattern.test(core)) return lead + core.replace(pattern, column === 0 ? ja : zh) + tail;
    }
    return english;
  }

  function known(text) {
    const core = text.trim();
    return Boolean(core) && (core in TEXT || PATTERNS.some(([p]) => p.test(core)));
  }

  function textNode(node) {
    let seen = original.get(node);  // {english, shown}: what the node held and what we showed
    if (seen === undefined || (node.nodeValue !== seen.english && node.nodeValue !== seen.shown)) {
      // new text (builder.js wrote it): English if it is in the catalogue
      if (!known(node.nodeValue)) return;
      seen = { english: node.nodeValue, shown: node.nodeValue };
      original.set(node, seen);
    }
    seen.shown = translate(seen.english);
    if (node.nodeValue !== seen.shown) node.nodeValue = seen.shown;
  }

  function element(el) {
    if (el.id === "ui-lang" || el.closest && el.closest("[data-no-i18n]")) return;
    let saved = originalAttr.get(el);  // attribute -> {english, shown}
    for (const name of ATTRS) {
      const value = el.getAttribute(name);
      if (value === null) continue;
      if (!saved) { saved = {}; originalAttr.set(el, saved); }
      let seen = saved[name];
      if (seen === undefined || (value !== seen.english && value !== seen.shown)) {
        if (!known(value)) continue;
        seen = saved[name] = { english: value, shown: value };
      }
      seen.shown = translate(seen.english);
      if (value !== seen.shown) el.setAttribute(name, seen.shown);
    }
  }

  function walk(root) {
    if (root.nodeType === Node.TEXT_NODE) { textNode(root); return; }
    if (root.nodeType !== Node.ELEMENT_NODE && root.nodeType !== Node.DOCUMENT_NODE) return;
    if (root.nodeType === Node.ELEMENT_NODE) {
      if (root.closest("[data-no-i18n]") || root.tagName === "SCRIPT" || root.tagName === "STYLE") return;
      element(root);
    }
    const it = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
      acceptNode: (n) => (n.nodeType === Node.ELEMENT_NODE && (n.hasAttribute("data-no-i18n") ||
        n.tagName === "SCRIPT" || n.tagName === "STYLE")) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
    });
    for (let n = it.nextNode(); n; n = it.nextNode()) {
      if (n.nodeType === Node.TEXT_NODE) textNode(n); else element(n);
    }
  }

  function apply() {
    document.documentElement.lang = HTML_LANG[lang];
    walk(document.head.querySelector("title") || document.head);
    walk(document.body);
  }

  function setLang(next) {
    if (!LANGS[next] || next === lang) return;
    lang = next;
    try { localStorage.setItem(KEY, next); } catch (e) { /* storage disabled */ }
    const select = document.getElementById("ui-lang");
    if (select) select.value = next;
    for (const fn of listeners) fn(next);
    apply();
  }

  function cardName(card) {
    if (!card) return "";
    const names = card.names || {};
    const local = lang === "ja" ? names.ja : lang === "zh" ? names["zh-CN"] : null;
    return local || card.name;
  }

  function hasLocalName(card) {
    const names = (card && card.names) || {};
    return lang === "en" || Boolean(lang === "ja" ? names.ja : names["zh-CN"]);
  }

  function switcher() {
    const select = document.createElement("select");
    select.id = "ui-lang";
    select.setAttribute("aria-label", "Language");
    for (const [value, label] of Object.entries(LANGS)) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = label;
      option.setAttribute("data-no-i18n", "");
      select.append(option);
    }
    select.value = lang;
    select.addEventListener("change", () => setLang(select.value));
    const header = document.querySelector("header");
    (header ? header : document.body).append(select);
  }

  window.deckcheckI18n = {
    get lang() { return lang; },
    t: translate,
    setLang,
    cardName,
    hasLocalName,
    onChange: (fn) => listeners.push(fn),
    apply,
  };

  document.addEventListener("DOMContentLoaded", () => {
    switcher();
    apply();
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === "characterData") textNode(r.target);
        else if (r.type === "attributes") element(r.target);
        else for (const n of r.addedNodes) walk(n);
      }
    }).observe(document.documentElement, {
      subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ATTRS,
    });
  });
})();
