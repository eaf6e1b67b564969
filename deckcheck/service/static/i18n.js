// deckcheck deck builder: the interface in English, Japanese, Simplified Chinese and Korean.
// The language comes from the browser (navigator.languages) unless the user picked one in the
// header's switcher (kept in localStorage). The page is written in English; every text node
// and placeholder/title/aria-label/label attribute whose English text is in the catalogue
// below is shown translated, also when builder.js adds it later (a MutationObserver), and
// switching back to English restores it. Card names come from the card documents' names.
"use strict";

(function () {
  // per language: its name in the switcher, its HTML lang tag, its column of CATALOGUE (after
  // the English) and the key of its name in a card document's names (the one place for each)
  const LANGS = {
    en: { label: "English", tag: "en", column: -1, names: "en" },
    ja: { label: "日本語", tag: "ja", column: 0, names: "ja" },
    zh: { label: "简体中文", tag: "zh-Hans", column: 1, names: "zh-CN" },
    ko: { label: "한국어", tag: "ko", column: 2, names: "ko" },
  };
  // One catalogue: [English, Japanese, Chinese, Korean] per entry. The English is a text (an
  // exact match) or a pattern for templated text ($1, $2 in a translation: the parts matched).
  const CATALOGUE = [
    ["deckcheck deck builder", "deckcheck デッキビルダー", "deckcheck 卡组构建器", "deckcheck 덱 빌더"],
    ["deck builder", "デッキビルダー", "卡组构建器", "덱 빌더"],
    ["Region", "地域", "地区", "지역"],
    ["TCG region", "TCG の地域", "TCG 地区", "TCG 지역"],
    ["North America", "北米", "北美", "북미"],
    ["Europe", "ヨーロッパ", "欧洲", "유럽"],
    ["Format", "フォーマット", "赛制", "포맷"],
    ["(the region's format)", "（地域のフォーマット）", "（该地区的赛制）", "(지역의 포맷)"],
    ["Formats", "フォーマット", "赛制", "포맷"],
    ["Eras", "時代", "时代", "시대"],
    ["Event date", "大会の日付", "比赛日期", "대회 날짜"],
    ["Empty deck", "デッキが空です", "卡组为空", "덱이 비어 있습니다"],
    ["LEGAL", "使用可", "合规", "사용 가능"],
    ["ILLEGAL", "使用不可", "不合规", "사용 불가"],
    ["Cards", "カード", "卡片", "카드"],
    ["Card search", "カード検索", "卡片搜索", "카드 검색"],
    ["Search cards", "カードを検索", "搜索卡片", "카드 검색"],
    ["Search: Ash Blossom, 灰流うらら, 灰流丽…", "検索：灰流うらら、Ash Blossom、灰流丽…", "搜索：灰流丽、Ash Blossom、灰流うらら…", "검색: 灰流うらら, Ash Blossom, 灰流丽…"],
    ["Search the card this line means…", "この行のカードを検索…", "搜索这一行所指的卡片…", "이 줄이 뜻하는 카드 검색…"],
    ["Name language", "名前の言語", "卡名语言", "이름 언어"],
    ["any language", "すべての言語", "任意语言", "모든 언어"],
    ["Click a card to add it (Extra Deck monsters go to the Extra Deck); \"Side\" adds it to the Side Deck.", "カードをクリックで追加（エクストラデッキのモンスターはエクストラデッキへ）。「サイド」でサイドデッキに追加。", "点击卡片即可加入（额外卡组怪兽进入额外卡组）；“副卡组”加入副卡组。", "카드를 누르면 추가됩니다(엑스트라 덱 몬스터는 엑스트라 덱으로). \"사이드\"는 사이드 덱에 추가합니다."],
    ["No card matches.", "一致するカードがありません。", "没有匹配的卡片。", "일치하는 카드가 없습니다."],
    ["Use this card for the unknown line", "不明な行にこのカードを使う", "将此卡用于未知的行", "알 수 없는 줄에 이 카드 사용"],
    ["Side", "サイド", "副卡组", "사이드"],
    ["Add to the Side Deck", "サイドデッキに追加", "加入副卡组", "사이드 덱에 추가"],
    ["Add to the Main Deck", "メインデッキに追加", "加入主卡组", "메인 덱에 추가"],
    ["Add to the Extra Deck", "エクストラデッキに追加", "加入额外卡组", "엑스트라 덱에 추가"],
    ["Deck", "デッキ", "卡组", "덱"],
    ["Main Deck", "メインデッキ", "主卡组", "메인 덱"],
    ["Extra Deck", "エクストラデッキ", "额外卡组", "엑스트라 덱"],
    ["Side Deck", "サイドデッキ", "副卡组", "사이드 덱"],
    ["Clear deck", "デッキを空にする", "清空卡组", "덱 비우기"],
    ["Deck cleared.", "デッキを空にしました。", "卡组已清空。", "덱을 비웠습니다."],
    ["Undo", "元に戻す", "撤销", "되돌리기"],
    ["Share link", "共有リンク", "分享链接", "공유 링크"],
    ["Link to this deck", "このデッキへのリンク", "此卡组的链接", "이 덱의 링크"],
    ["Link copied.", "リンクをコピーしました。", "链接已复制。", "링크를 복사했습니다."],
    ["Link to this deck:", "このデッキへのリンク：", "此卡组的链接：", "이 덱의 링크:"],
    ["Link copied. (Unknown lines are not in it.)", "リンクをコピーしました。（不明な行は含まれません。）", "链接已复制。（不含未知的行。）", "링크를 복사했습니다. (알 수 없는 줄은 들어 있지 않습니다.)"],
    ["Link to this deck: (Unknown lines are not in it.)", "このデッキへのリンク：（不明な行は含まれません。）", "此卡组的链接：（不含未知的行。）", "이 덱의 링크: (알 수 없는 줄은 들어 있지 않습니다.)"],
    ["Remove one", "1枚減らす", "减少一张", "한 장 빼기"],
    ["Add one", "1枚増やす", "增加一张", "한 장 더하기"],
    ["Move one to the side deck", "1枚サイドデッキへ", "移一张到副卡组", "한 장 사이드 덱으로"],
    ["Move one to the main deck", "1枚メインデッキへ", "移一张到主卡组", "한 장 메인 덱으로"],
    ["Move one to the extra deck", "1枚エクストラデッキへ", "移一张到额外卡组", "한 장 엑스트라 덱으로"],
    ["→ Side", "→ サイド", "→ 副卡组", "→ 사이드"],
    ["→ Deck", "→ デッキ", "→ 卡组", "→ 덱"],
    ["No card has this name: search for the one you mean.", "この名前のカードはありません：目的のカードを検索してください。", "没有这个名字的卡：请搜索您要找的卡。", "이 이름의 카드가 없습니다: 찾는 카드를 검색하세요."],
    ["Find", "検索", "查找", "찾기"],
    ["Legality", "使用可否", "合规性", "사용 가능 여부"],
    ["Add cards to check the deck.", "カードを追加するとデッキを確認します。", "加入卡片后检查卡组。", "카드를 추가하면 덱을 확인합니다."],
    ["Import / export", "読み込み・書き出し", "导入 / 导出", "가져오기 / 내보내기"],
    ["Paste a .ydk file, a ydke:// URL or a text list, then Import.", ".ydk ファイル、ydke:// URL またはテキストリストを貼り付けて「読み込む」。", "粘贴 .ydk 文件、ydke:// URL 或文本卡表，然后点“导入”。", ".ydk 파일, ydke:// URL 또는 텍스트 목록을 붙여 넣고 \"가져오기\"를 누르세요."],
    ["Paste a .ydk file, a ydke:// URL or a text list, then Import; or drop a file here.", ".ydk ファイル、ydke:// URL またはテキストリストを貼り付けて「読み込む」、またはここにファイルをドロップ。", "粘贴 .ydk 文件、ydke:// URL 或文本卡表，然后点“导入”；或把文件拖到这里。", ".ydk 파일, ydke:// URL 또는 텍스트 목록을 붙여 넣고 \"가져오기\"를 누르거나, 파일을 여기에 끌어 놓으세요."],
    ["Deck to import or exported deck", "読み込むデッキ、または書き出したデッキ", "要导入的卡组或导出的卡组", "가져올 덱 또는 내보낸 덱"],
    ["Import", "読み込む", "导入", "가져오기"],
    ["Open file…", "ファイルを開く…", "打开文件…", "파일 열기…"],
    ["Export as", "書き出し形式", "导出格式", "내보내기 형식"],
    ["Show", "表示", "显示", "보기"],
    ["Download", "ダウンロード", "下载", "내려받기"],
    ["text", "テキスト", "文本", "텍스트"],
    ["Export ydk", "ydk で書き出す", "导出 ydk", "ydk로 내보내기"],
    ["Export ydke", "ydke で書き出す", "导出 ydke", "ydke로 내보내기"],
    ["Export text", "テキストで書き出す", "导出文本", "텍스트로 내보내기"],
    ["Paste a deck first.", "先にデッキを貼り付けてください。", "请先粘贴卡组。", "먼저 덱을 붙여 넣으세요."],
    ["Opening-hand odds", "初手の確率", "起手概率", "첫 패 확률"],
    ["Pick Main Deck cards for each category; the odds of the hand you ask for, by turn, going first and second.", "カテゴリごとにメインデッキのカードを選ぶと、先攻・後攻のターンごとの確率を表示します。", "为每个类别选择主卡组的卡；显示先攻和后攻每回合的概率。", "분류마다 메인 덱 카드를 고르면, 원하는 패가 나올 확률을 선공·후공 턴별로 보여 줍니다."],
    ["new category (e.g. starter)", "新しいカテゴリ（例：初動）", "新类别（例如：起手）", "새 분류 (예: 초동)"],
    ["New category name", "新しいカテゴリ名", "新类别名称", "새 분류 이름"],
    ["Add category", "カテゴリを追加", "添加类别", "분류 추가"],
    ["No category yet.", "カテゴリはまだありません。", "还没有类别。", "아직 분류가 없습니다."],
    ["Tick cards in a category.", "カテゴリのカードにチェックを入れてください。", "请在类别中勾选卡片。", "분류에서 카드를 체크하세요."],
    ["The Main Deck is empty.", "メインデッキが空です。", "主卡组为空。", "메인 덱이 비어 있습니다."],
    ["at least 1", "1枚以上", "至少1张", "1장 이상"],
    ["none", "0枚", "0张", "0장"],
    ["all of these", "これらすべて", "以上全部", "이 모두"],
    ["What if?", "もしも？", "如果？", "만약?"],
    ["Computing…", "計算中…", "计算中…", "계산 중…"],
    ["copies", "枚数", "张数", "매수"],
    ["turn", "ターン", "回合", "턴"],
    ["Remove", "削除", "删除", "삭제"],
    ["by turn", "ターン", "回合", "턴"],
    ["Exact odds.", "厳密な確率。", "精确概率。", "정확한 확률."],
    ["Odds by turn", "ターンごとの確率", "每回合概率", "턴별 확률"],
    ["Odds by turn, going first (solid) and second (dashed)", "ターンごとの確率、先攻（実線）と後攻（破線）", "每回合概率，先攻（实线）和后攻（虚线）", "턴별 확률, 선공(실선)과 후공(점선)"],
    ["Going", "先攻・後攻", "先后攻", "선공·후공"],
    ["first and second", "先攻と後攻", "先攻和后攻", "선공과 후공"],
    ["first", "先攻", "先攻", "선공"],
    ["second", "後攻", "后攻", "후공"],
    ["Turns", "ターン数", "回合数", "턴 수"],
    ["Sample hands", "サンプルの手札", "示例手牌", "예시 패"],
    ["Open as a new deck", "新しいデッキとして開く", "作为新卡组打开", "새 덱으로 열기"],
    ["Keep my deck", "自分のデッキのまま", "保留我的卡组", "내 덱 유지"],
    ["This link holds another deck. Your deck stays as it is unless you open the link.", "このリンクには別のデッキがあります。リンクを開かない限り、あなたのデッキはそのままです。", "此链接包含另一个卡组。除非打开链接，你的卡组保持不变。", "이 링크에는 다른 덱이 들어 있습니다. 링크를 열지 않으면 내 덱은 그대로입니다."],
    ["Opened the shared deck. Undo brings your deck back.", "共有されたデッキを開きました。「元に戻す」で自分のデッキに戻ります。", "已打开共享的卡组。“撤销”可恢复你的卡组。", "공유된 덱을 열었습니다. \"되돌리기\"로 내 덱으로 돌아갑니다."],
    ["deckcheck · data as of", "deckcheck · データ時点", "deckcheck · 数据截至", "deckcheck · 데이터 기준"],
    ["unknown", "不明", "未知", "알 수 없음"],
    ["Language", "言語", "语言", "언어"],
    ["Submit to event", "大会に提出", "提交到比赛", "대회에 제출"],
    ["Submission link", "提出用リンク", "提交链接", "제출 링크"],
    ["Edit token", "編集トークン", "编辑令牌", "수정 토큰"],
    ["(for a change to your registration)", "（登録を変更するとき）", "（修改报名时使用）", "(등록을 바꿀 때)"],
    ["Submit deck", "デッキを提出", "提交卡组", "덱 제출"],
    ["Update my registration", "自分の登録を更新", "更新我的报名", "내 등록 업데이트"],
    ["cannot reach the event", "大会に接続できません", "无法连接到比赛", "대회에 연결할 수 없습니다"],
    ["Give the event's submission link", "大会の提出用リンクを入力してください", "请填写比赛的提交链接", "대회의 제출 링크를 입력하세요"],
    ["Give your edit token (from your first submission)", "編集トークン（最初の提出で表示されたもの）を入力してください", "请填写编辑令牌（首次提交时显示）", "수정 토큰(처음 제출할 때 받은 것)을 입력하세요"],
    ["SUBMITTED: LEGAL", "提出済み：使用可", "已提交：合规", "제출됨: 사용 가능"],
    ["SUBMITTED: ILLEGAL (fix it before the deadline)", "提出済み：使用不可（締切までに直してください）", "已提交：不合规（请在截止前修正）", "제출됨: 사용 불가 (마감 전에 고치세요)"],
    ["Already registered: use your edit token to update it", "登録済みです：編集トークンで更新してください", "已经报名：请用编辑令牌更新", "이미 등록되어 있습니다: 수정 토큰으로 업데이트하세요"],
    ["Submissions are closed", "提出は締め切られました", "提交已截止", "제출이 마감되었습니다"],
    ["Not submitted", "提出されていません", "未提交", "제출되지 않았습니다"],
    ["Print decklist", "デッキリストを印刷", "打印卡组表", "덱 리스트 인쇄"],
    ["Deck Registration Sheet", "デッキ登録用紙", "卡组登记表", "덱 등록 용지"],
    ["Player name", "氏名", "姓名", "플레이어 이름"],
    ["Player ID", "プレイヤーID", "玩家编号", "플레이어 ID"],
    ["Event", "大会名", "比赛名称", "대회"],
    ["Date", "日付", "日期", "날짜"],
    ["Deck name", "デッキ名", "卡组名称", "덱 이름"],
    ["Monster Cards", "モンスターカード", "怪兽卡", "몬스터 카드"],
    ["Spell Cards", "魔法カード", "魔法卡", "마법 카드"],
    ["Trap Cards", "罠カード", "陷阱卡", "함정 카드"],
    ["Other / unknown", "その他・不明", "其他・未知", "기타 / 알 수 없음"],
    ["Qty", "枚数", "数量", "매수"],
    ["Card name", "カード名", "卡名", "카드 이름"],
    ["Total", "合計", "合计", "합계"],
    ["Deck totals", "デッキ枚数", "卡组张数", "덱 매수"],
    ["Print", "印刷", "打印", "인쇄"],
    ["Download PDF (with QR code)", "PDF をダウンロード（QR コード付き）", "下载 PDF（带二维码）", "PDF 내려받기 (QR 코드 포함)"],
    ["Close", "閉じる", "关闭", "닫기"],
    ["The deck as a ydke:// URL", "デッキの ydke:// URL", "卡组的 ydke:// URL", "덱의 ydke:// URL"],
    ["* no name in this language: the English name is shown", "* 日本語名なし：英語名を表示", "* 无中文卡名：显示英文卡名", "* 한국어 이름 없음: 영어 이름을 표시합니다"],
    [/^No problem: legal in (.+) on (.+)\.$/, "問題なし：$2 に $1 で使用可。", "没有问题：$2 在 $1 中合规。", "문제 없음: $2에 $1에서 사용 가능."],
    [/^Cannot check the deck: (.*)$/, "デッキを確認できません：$1", "无法检查卡组：$1", "덱을 확인할 수 없습니다: $1"],
    [/^Cannot check: (.*)$/, "確認できません：$1", "无法检查：$1", "확인할 수 없습니다: $1"],
    [/^Cannot import: (.*)$/, "読み込めません：$1", "无法导入：$1", "가져올 수 없습니다: $1"],
    [/^Cannot export: (.*)$/, "書き出せません：$1", "无法导出：$1", "내보낼 수 없습니다: $1"],
    [/^Cannot make a link: (.*)$/, "リンクを作れません：$1", "无法生成链接：$1", "링크를 만들 수 없습니다: $1"],
    [/^Your edit token \(keep it; shown once\): (.*)$/, "編集トークン（保管してください。表示は一度だけ）：$1", "你的编辑令牌（请保存，只显示一次）：$1", "수정 토큰 (보관하세요. 한 번만 보입니다): $1"],
    [/^registration (.+) · fingerprint (.+) · version (.+)$/, "登録 $1 · フィンガープリント $2 · 版 $3", "报名 $1 · 指纹 $2 · 版本 $3", "등록 $1 · 지문 $2 · 버전 $3"],
    [/^(.+) · closes (.+) · (\S+)$/, "$1 · 締切 $2 · $3", "$1 · 截止 $2 · $3", "$1 · 마감 $2 · $3"],
    [/^Cannot open the link: (.*)$/, "リンクを開けません：$1", "无法打开链接：$1", "링크를 열 수 없습니다: $1"],
    [/^Sample hands \(seed (\d+)\)$/, "サンプルの手札（シード $1）", "示例手牌（种子 $1）", "예시 패 (시드 $1)"],
    [/^going first: (.*)$/, "先攻：$1", "先攻：$1", "선공: $1"],
    [/^going second: (.*)$/, "後攻：$1", "后攻：$1", "후공: $1"],
    [/^· turn (\d+): (.*)$/, "· $1ターン目：$2", "· 第 $1 回合：$2", "· $1턴: $2"],
    [/^meets by turn (\d+): none$/, "$1ターンまでに満たす条件：なし", "第 $1 回合前满足：无", "$1턴까지 충족: 없음"],
    [/^meets by turn (\d+): (.*)$/, "$1ターンまでに満たす条件：$2", "第 $1 回合前满足：$2", "$1턴까지 충족: $2"],
    [/^Cannot compute odds: (.*)$/, "確率を計算できません：$1", "无法计算概率：$1", "확률을 계산할 수 없습니다: $1"],
    [/^Cannot compute: (.*)$/, "計算できません：$1", "无法计算：$1", "계산할 수 없습니다: $1"],
    [/^Formats: (.*)$/, "フォーマット：$1", "赛制：$1", "포맷: $1"],
    [/^Remove one (.+)$/, "$1 を1枚減らす", "减少一张 $1", "$1 한 장 빼기"],
    [/^Add one (.+)$/, "$1 を1枚増やす", "增加一张 $1", "$1 한 장 더하기"],
    [/^Add (.+) to the Side Deck$/, "$1 をサイドデッキに追加", "将 $1 加入副卡组", "$1을(를) 사이드 덱에 추가"],
    [/^Move one (.+) to the Side Deck$/, "$1 を1枚サイドデッキへ", "移一张 $1 到副卡组", "$1 한 장을 사이드 덱으로"],
    [/^Move one (.+) to the Main or Extra Deck$/, "$1 を1枚メインまたはエクストラデッキへ", "移一张 $1 到主卡组或额外卡组", "$1 한 장을 메인 또는 엑스트라 덱으로"],
    [/^Find the card for (.+)$/, "「$1」のカードを検索", "查找“$1”的卡", "\"$1\"의 카드 찾기"],
    [/^Remove the line (.+)$/, "行「$1」を削除", "删除“$1”这一行", "\"$1\" 줄 삭제"],
    [/^What the hand needs of (.+)$/, "$1 について手札に必要なもの", "手牌对 $1 的要求", "$1에 대해 패에 필요한 것"],
    [/^Tick the cards of (.+) first\.$/, "先に $1 のカードにチェックを入れてください。", "请先勾选 $1 的卡。", "먼저 $1의 카드를 체크하세요."],
    [/^What if: copies of (.+)$/, "もしも：$1 の枚数", "如果：$1 的张数", "만약: $1의 매수"],
    [/^(.+): at least 1, opening hand going first$/, "$1：1枚以上、先攻の初手", "$1：至少1张，先攻起手", "$1: 1장 이상, 선공 첫 패"],
    [/^(.+): none, opening hand going first$/, "$1：0枚、先攻の初手", "$1：0张，先攻起手", "$1: 0장, 선공 첫 패"],
    [/^(.+): at least 1 \(going first\)$/, "$1：1枚以上（先攻）", "$1：至少1张（先攻）", "$1: 1장 이상 (선공)"],
    [/^(.+): at least 1 \(going second\)$/, "$1：1枚以上（後攻）", "$1：至少1张（后攻）", "$1: 1장 이상 (후공)"],
    [/^(.+): none \(going first\)$/, "$1：0枚（先攻）", "$1：0张（先攻）", "$1: 0장 (선공)"],
    [/^(.+): none \(going second\)$/, "$1：0枚（後攻）", "$1：0张（后攻）", "$1: 0장 (후공)"],
    [/^all of these \(going first\)$/, "これらすべて（先攻）", "以上全部（先攻）", "이 모두 (선공)"],
    [/^all of these \(going second\)$/, "これらすべて（後攻）", "以上全部（后攻）", "이 모두 (후공)"],
    [/^(.+) \(going first\)$/, "$1（先攻）", "$1（先攻）", "$1 (선공)"],
    [/^(.+) \(going second\)$/, "$1（後攻）", "$1（后攻）", "$1 (후공)"],
    [/^(.+): at least 1$/, "$1：1枚以上", "$1：至少1张", "$1: 1장 이상"],
    [/^(.+): none$/, "$1：0枚", "$1：0张", "$1: 0장"],
    [/^(\d+) \(now\)$/, "$1（現在）", "$1（当前）", "$1 (현재)"],
    [/^Simulated \((\d+) games per going, 95% intervals in the API\)\.$/, "シミュレーション（先攻・後攻それぞれ $1 回、95% 区間は API に）。", "模拟（先攻和后攻各 $1 局，95% 区间见 API）。", "시뮬레이션 (선공·후공 각각 $1회, 95% 구간은 API에)."],
    [/^Exact odds; the deck stays at (\d+) cards \(cards of no category make room\)\.$/, "厳密な確率。デッキは $1 枚のまま（どのカテゴリにも入らないカードを減らします）。", "精确概率；卡组保持 $1 张（由不属于任何类别的卡让出位置）。", "정확한 확률. 덱은 $1장 그대로입니다 (어느 분류에도 없는 카드가 자리를 내줍니다)."],
    [/^Simulated; the deck stays at (\d+) cards \(cards of no category make room\)\.$/, "シミュレーション。デッキは $1 枚のまま（どのカテゴリにも入らないカードを減らします）。", "模拟；卡组保持 $1 张（由不属于任何类别的卡让出位置）。", "시뮬레이션. 덱은 $1장 그대로입니다 (어느 분류에도 없는 카드가 자리를 내줍니다)."],
    [/^(.+) — solid: first, dashed: second$/, "$1 — 実線：先攻、破線：後攻", "$1 — 实线：先攻，虚线：后攻", "$1 — 실선: 선공, 점선: 후공"],
    [/^(\S+) \(fingerprint (\w+)\)$/, "$1（フィンガープリント $2）", "$1（指纹 $2）", "$1 (지문 $2)"],
    [/^(.+), era (.+), (\d{4}-\d\d-\d\d), list (.+)$/, "$1、時代 $2、$3、リスト $4", "$1，时代 $2，$3，禁限卡表 $4", "$1, 시대 $2, $3, 리스트 $4"],
    [/^(.+), era (.+), (\d{4}-\d\d-\d\d)$/, "$1、時代 $2、$3", "$1，时代 $2，$3", "$1, 시대 $2, $3"],
    [/^(\d+)\/(\d+) points: (.*)$/, "$1/$2 ポイント：$3", "$1/$2 点：$3", "$1/$2 포인트: $3"],
    [/^line (\d+): (.*)$/, "$1行目：$2", "第 $1 行：$2", "$1번째 줄: $2"],
    [/^(.+): over 1 MiB$/, "$1：1 MiB を超えています", "$1：超过 1 MiB", "$1: 1 MiB 초과"],
    [/^#(\d+) \(unknown passcode\)$/, "#$1（不明なパスコード）", "#$1（未知的卡片密码）", "#$1 (알 수 없는 패스코드)"],
    [/^Legal on (\S+), list (.+)$/, "$1 時点で使用可（リスト $2）", "$1 合规（禁限卡表 $2）", "$1 기준 사용 가능 (리스트 $2)"],
    [/^Legal on (\S+)$/, "$1 時点で使用可", "$1 合规", "$1 기준 사용 가능"],
    [/^Not legal on (\S+): (\d+) errors?$/, "$1 時点で使用不可：エラー $2 件", "$1 不合规：$2 个错误", "$1 기준 사용 불가: 오류 $2건"],
  ];
  const TEXT = new Map(CATALOGUE.filter(([en]) => typeof en === "string").map(([en, ...local]) => [en, local]));
  const PATTERNS = CATALOGUE.filter(([en]) => en instanceof RegExp);

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
      if (String(tag).toLowerCase().match(/^zh-(tw|hk|mo|hant)/)) continue;  // not Simplified
      if (LANGS[base]) return base;
    }
    return "en";
  }

  let lang = pick();

  function translate(english) {
    if (lang === "en") return english;
    const column = LANGS[lang].column;
    const core = english.trim();
    if (!core) return english;
    const lead = english.slice(0, english.indexOf(core));
    const tail = english.slice(lead.length + core.length);
    const hit = TEXT.get(core);
    if (hit) return lead + hit[column] + tail;
    for (const [pattern, ...local] of PATTERNS) {
      if (pattern.test(core)) return lead + core.replace(pattern, local[column]) + tail;
    }
    return english;
  }

  function known(text) {
    const core = text.trim();
    return Boolean(core) && (TEXT.has(core) || PATTERNS.some(([p]) => p.test(core)));
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
    document.documentElement.lang = LANGS[lang].tag;
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

  function localName(card) {
    const names = (card && card.names) || {};
    return lang === "en" ? card && card.name : names[LANGS[lang].names];
  }

  function cardName(card) {
    if (!card) return "";
    return localName(card) || card.name;
  }

  function hasLocalName(card) {
    return Boolean(localName(card));
  }

  function switcher() {
    const select = document.createElement("select");
    select.id = "ui-lang";
    select.setAttribute("aria-label", "Language");
    for (const [value, { label }] of Object.entries(LANGS)) {
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
