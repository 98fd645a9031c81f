// @ts-check
/* bgclock: every string the pages share, in one dictionary (English,
 * Italian), and the words' machinery (docs/pages.md, "Strings").
 *
 * t("key", {name: value}) fills {name} placeholders; with a number `n` among
 * them, "key.one" is used when the language's plural rule says "one" (1 punto,
 * 1 point) and "key" otherwise (2 punti); a missing Italian string
 * falls back to English, a missing key shows the key itself (a test catches it).
 *
 * A screen's own strings live in its strings module, merged one way into this
 * dictionary by `withStrings` when that module is imported. */

/** @typedef {Object<string, Object<string, string>>} Strings language -> key -> text */
/** @typedef {Object<string, unknown>} Params */

/** @type {Strings} */
const STRINGS = {
    en: {
      "app.table": "Table clock", "app.director": "Director",
      "lang.name": "English", "lang.switch": "IT",
      "conn.connecting": "connecting…", "conn.online": "online",
      "conn.offline": "offline — reconnecting", "conn.queued": "{n} presses waiting to be sent",
      "conn.unauthorized": "this link is not valid", "conn.closed": "table closed",
      "side.A": "A", "side.B": "B",
      "half.turn": "▶ TO PLAY", "half.idle": "waiting", "half.flag": "⚑ FLAG — TIME EXPIRED",
      "half.low": "⚠ LOW TIME", "half.stopped": "❚❚ stopped", "half.winner": "★ WINNER",
      "half.doubled": "you were doubled", "half.offer_to_you": "answer the offer",
      "allow.delay": "delay {t}", "allow.credit": "credit +{t} / {d}",
      "allow.next": "next move: {t}", "allow.none": "no allowance", "allow.forfeit": "delay forfeited",
      "allow.credit_next": "credit up to {t}",
      "bar.score": "Score", "bar.to": "to {n}", "bar.cube": "Cube", "bar.game": "Game {n}",
      "bar.crawford": "CRAWFORD", "bar.frozen": "cube frozen", "bar.centered": "centre",
      "bar.stop": "❚❚ Stop", "bar.resume": "▶ Resume", "bar.menu": "☰", "bar.fullscreen": "⤢",
      "bar.director_lbl": "Director", "set.language": "Language",
      "phase.setup": "before the first game", "phase.playing": "playing",
      "phase.stopped": "clocks stopped", "phase.offer": "offer on the table",
      "phase.dispute": "dispute — director called", "phase.between_games": "between games",
      "phase.break": "break", "phase.match_over": "match over",
      "reason.concession": "concession", "reason.break": "break", "reason.fallen_dice": "fallen dice",
      "reason.dispute": "dispute", "reason.director": "director called",
      "reason.dice_not_left": "dice not left on the board", "reason.other": "other",
      "reason.restart": "server restarted", "reason.time_expired": "time expired",
      "act.double": "Double", "act.take": "Take", "act.pass": "Pass", "act.accept": "Accept",
      "act.reject": "Reject", "act.more": "⋯", "act.close": "✕ Close", "act.cancel": "✕ Cancel",
      "act.confirm": "✓ Confirm", "act.start": "Start", "act.resume": "▶ Resume",
      "act.concede": "Concede", "act.claim": "Claim", "act.game_over": "I bore off (game over)",
      "act.break": "Take a break", "act.summon": "☎ Call the director", "act.stop": "❚❚ Stop clocks",
      "result.single": "single", "result.gammon": "gammon", "result.backgammon": "backgammon",
      "ask.double": "{name}: double to {v}?", "ask.take": "{name}: take the cube at {v}?",
      "ask.pass": "{name}: pass (lose {pts})?",
      "ask.concede": "{name}: concede a {r}?", "ask.claim": "{name}: claim a {r}?",
      "ask.accept": "{name}: accept the {kind} of a {r}?", "ask.reject": "{name}: reject it (the director decides)?",
      "ask.game_over": "{name} won a {r}?", "ask.break": "{name}: start a break?",
      "ask.summon": "Stop the clocks and call the director?",
      "act.premature": "⚠ Premature: {name}",
      "ask.premature": "{name}: stop the clocks and call the director to claim a premature action by {other}?",
      "stop.premature": "premature action by {name} (call the director)",
      "summon.sent": "{name} called the director", "summon.premature": "{a} claims a premature action by {b}: the director is called",
      "offer.concede": "{name} concedes a {r}", "offer.claim": "{name} claims a {r}",
      "double.offer": "{name} doubles to {v}", "menu.side": "{name}'s actions",
      "menu.stop": "Stop both clocks: why?", "menu.settings": "Settings",
      "menu.result": "Result", "menu.concede_title": "Concede", "menu.claim_title": "Claim",
      "menu.game_over_title": "I won",
      "roll.title": "Opening roll", "roll.die": "{name}'s die", "roll.start": "Start the clock",
      "roll.equal": "equal dice: roll again", "roll.pick": "pick both dice",
      "late.count": "{names} late: {points} penalty point(s) to the opponent, score {a}–{b}",
      "late.next": "next point at {t}", "late.out": "disqualified at {t}",
      "late.over": "{names} disqualified (late)", "late.arrived": "{names} arrived: the count stopped",
      "sheet.open": "Score sheets", "sheet.of": "{name}'s score sheet:", "sheet.won": "{name} won",
      "sheet.final": "Both sheets agree: the result is in the draw.",
      "sheet.mismatch": "The sheets differ: the director is told.", "sheet.kept": "Sheet kept: the other player's is awaited.",
      "sheet.games": "{name}'s running score, game by game", "sheet.games_hint": "score after each game: 1-0 1-2 3-2",
      "sheet.pin": "{name}'s sheet PIN", "sheet.pin_hint": "your sheet PIN",
      "sheet.bad_games": "Write the score after each game as A-B, e.g. 1-0 1-2 3-2.",
      "sheet.trailing": "The sheets differ: the trailing player's sheet stands, and the director is told.",
      "sheet.unconfirmed": "Sheet kept: without both players' PINs the director settles the result.",
      "set.layout": "Layout", "set.layout.auto": "auto", "set.layout.stack": "face to face",
      "set.layout.side": "side by side", "set.swap": "Swap halves", "set.sound": "Sound",
      "set.vibrate": "Vibration", "set.thresholds": "Low-time warnings (seconds)",
      "set.fullscreen": "Full screen", "set.keys": "Keys: A = Left Shift or a, B = Right Shift or l, Esc closes",
      "set.on": "on", "set.off": "off", "set.save": "Save",
      "err.illegal": "Refused: {m}", "err.generic": "{m}",
      "match.winner": "{name} wins the match", "match.score": "{a} – {b}",
      "break.running": "break: {t}", "break.over": "break over limit by {t}",
      "late": "late start: no game yet",
      /* director */
      "dir.title": "Director's dashboard", "dir.alerts": "Alerts", "dir.no_alerts": "no alerts",
      "dir.tables": "Tables", "dir.new_tournament": "+ Tournament", "dir.new_table": "+ Table",
      "dir.print": "Print QR codes", "dir.open": "Open", "dir.ack": "Handled",
      "dir.no_tables": "no tables yet: create a tournament, then a table",
      "alert.director": "director called", "alert.flag": "flag: time expired",
      "alert.dispute": "dispute", "alert.dispute_expiry": "expiry ruling needed (gin or lost)",
      "alert.break_over": "break running over", "alert.restart": "recovered after a restart", "alert.quarantined": "log cannot be replayed: table stopped",
      "alert.premature": "premature action claimed", "alert.premature_by": "{a} claims a premature action by {b}",
      "dir.confirm_premature": "Confirm: premature action by {name}", "alert.closed": "closed",
      "det.clocks": "Clocks", "det.log": "Event log", "det.actions": "Director's actions",
      "det.link": "Table link", "det.qr": "QR code", "det.close_table": "Close table",
      "det.ruling": "Ruling", "det.ruling.accept": "offer stands", "det.ruling.invalid": "invalid: play on",
      "det.ruling.gin": "gin: {r}", "det.ruling.lost": "lost on time",
      "det.adjust": "Adjust time", "det.amount": "amount (m:ss)", "det.add": "+ add", "det.remove": "− remove",
      "det.move": "Move time", "det.move_from": "from {a} to {b}",
      "det.penalty": "Penalty points", "det.points": "points", "det.premature": "Confirm premature action",
      "det.late_start": "Start a late player's clock", "det.start": "Introduce the clock mid-game (side on turn)",
      "det.cube_value": "Cube value on the board", "det.cube_owner": "Cube owner", "det.cube_centered": "centered",
      "det.resume": "Resume", "det.stop": "Stop (director)", "det.confirm": "Confirm: {what}?",
      "det.sent": "sent", "det.refused": "refused: {m}",
      "det.sugg.position": "Position (gnubg ID or XGID)", "det.sugg.ask": "Suggest ruling",
      "det.sugg.on_roll": "The side on roll in the position: {side} · {name}",
      "det.sugg.busy": "searching…", "det.sugg.ruling": "Suggested ruling", "det.sugg.apply": "Apply: {what}",
      "det.sugg.unknown": "Unknown: the search could not decide; rule by eye",
      "det.sugg.error": "No suggestion: {m}", "det.sugg.empty": "type the position first",
      "log.seq": "#", "log.at": "time", "log.event": "event", "log.source": "by", "log.lag": "lag credit",
      "form.tournament": "New tournament", "form.name": "Name", "form.table": "New table",
      "form.tournament_sel": "Tournament", "form.players": "Players (A, B)",
      "form.preset": "Rules", "form.length": "Match length", "form.score": "Score (A, B)",
      "form.teams": "Teams", "form.crawford": "First game is the Crawford game",
      "form.overrides": "Clock overrides (optional)", "form.mode": "mode",
      "form.per_point": "per point (m:ss)", "form.less_per_point": "less per point scored (m:ss)",
      "form.delay": "delay / increment (s)", "form.reserve": "fixed reserve (m:ss)",
      "form.create": "Create", "form.created": "created", "form.warn": "low-time warnings (s)",
      "form.edit_table": "Edit table (before play)", "form.save": "Save", "det.edit_table": "Edit table",
      "dir.unauthorized": "This browser cannot open the director's dashboard: open the director's link the server printed (a new director's key ends every earlier session).",
      /* The engine's refusals by their stable codes (bgclock.core REFUSALS). */
      "ref.not_in_phase": "{event} is not allowed {when}",
      "ref.match_over": "{event} is not allowed: the match is over",
      "ref.no_game": "{event} is not allowed: no game is in progress",
      "ref.opening_roll_in_game": "opening roll is not allowed during a game",
      "ref.opening_dice_equal": "the opening dice are equal ({a}-{b}): roll again",
      "ref.start_at_game_start": "{rules}: clocks are introduced only at the start of a game (1.1)",
      "ref.clock_in_use": "{event} is not allowed: the clock is already in use",
      "ref.start_cube_centered": "the clock cannot start with a centered cube at {value}: a doubled cube has an owner",
      "ref.start_cube_owned_at_one": "the clock cannot start with {side} owning the cube at 1: a cube nobody doubled is centered",
      "ref.start_cube_crawford": "the clock cannot start with the cube at {value}: this is the Crawford game, the cube stays centered at 1",
      "ref.doubled_must_answer": "{side} has been doubled: {side} must take or pass",
      "ref.double_pending": "{side} cannot double: a double is waiting for an answer",
      "ref.double_not_turn": "{side} cannot double: it is not {side}'s turn",
      "ref.crawford_no_double": "{side} cannot double: this is the Crawford game",
      "ref.cube_frozen": "{side} cannot double: the cube is frozen (aba-2003 5.2)",
      "ref.cube_owned_by_opponent": "{side} cannot double: the opponent owns the cube",
      "ref.premature_no_cube": "{side} cannot double: after a premature roll the player cannot use the cube this turn (Italian rules)",
      "ref.premature_delay_running": "{side} cannot double yet: after a premature action the delay must run out first (biba-2014 4.6)",
      "ref.no_double_to_answer": "{side} cannot {event}: no double is waiting",
      "ref.own_double": "{side} cannot {event} its own double",
      "ref.no_offer": "{event} is not allowed: there is no offer to answer",
      "ref.own_offer": "{side} cannot {event} its own offer",
      "ref.max_concession": "{side} cannot reject a backgammon concession: no player may refuse a concession of the maximum",
      "ref.no_dispute": "ruling is not allowed: there is no dispute to rule on",
      "ref.ruling_for_offer": "a rejected offer is ruled 'accept' or 'invalid', not '{decision}'",
      "ref.ruling_for_expiry": "a BIBA time expiration is ruled 'gin' or 'lost', not '{decision}'",
      "ref.director_must_rule": "{event} is not allowed: the director must rule: gin or lost",
      "ref.dispute_open": "{event} is not allowed: the director must rule on the dispute",
      "ref.offer_open": "{event} is not allowed: the offer waits for an answer",
      "ref.game_over_double_pending": "game over is not allowed: a double is waiting for take or pass",
      "ref.break_between_games": "a break is not allowed during a game: breaks are taken between games",
      "ref.break_limit": "{side} cannot take another break: {limit} allowed in a {length}-point match",
      "ref.not_stopped": "resume is not allowed: the clocks are not stopped",
      "ref.not_running": "stop is not allowed: no clock is running",
      "ref.invalid": "{message}",
      "ref.time_backwards": "time cannot go backwards: {at_ms} ms is before {now_ms} ms",
      "evn.opening_roll": "opening roll",
      "evn.start": "start",
      "evn.late_start": "late start",
      "evn.hit": "hit",
      "evn.double": "double",
      "evn.take": "take",
      "evn.pass": "pass",
      "evn.stop": "stop",
      "evn.resume": "resume",
      "evn.concede": "concede",
      "evn.claim": "claim",
      "evn.accept": "accept",
      "evn.reject": "reject",
      "evn.ruling": "ruling",
      "evn.game_over": "game over",
      "evn.break": "break",
      "evn.premature": "premature",
      "evn.adjust": "adjust",
      "evn.penalty": "penalty",
      "when.setup": "before the first game",
      "when.playing": "while a clock runs",
      "when.stopped": "while the clocks are stopped",
      "when.offer": "while an offer waits for an answer",
      "when.dispute": "while the director is summoned",
      "when.between_games": "between games",
      "when.break": "during a break",
      "when.match_over": "after the match is over",
      "ref.unknown": "refused: {m}", "half.overtime": "OVERTIME", "half.no_cube": "no cube this turn",
      "form.overtime": "overtime (m:ss, USBGF option)", "alert.overtime": "overtime granted to {side}",
      "conn.queued.one": "{n} press waiting to be sent", "conn.synced": "synced",
      "conn.waiting": "{list} waiting to be sent", "conn.synced_list": "synced: {list} applied at their instants",
      "conn.retimed": "{what} re-timed by {by}", "conn.refused": "{what} refused: {why}",
      "conn.ignored": "{what} not needed any more", "conn.restarted": "the server restarted",
      "conn.dropped": "a new match: {list} of the last one not sent",
      "conn.restored": "restored on this device",
      "kind.hit": "{n} presses", "kind.hit.one": "{n} press", "kind.double": "{n} doubles", "kind.double.one": "a double",
      "kind.take": "{n} takes", "kind.take.one": "a take", "kind.pass": "{n} passes", "kind.pass.one": "a pass",
      "kind.stop": "{n} stops", "kind.stop.one": "a stop", "kind.resume": "{n} resumes", "kind.resume.one": "a resume",
      "kind.opening_roll": "{n} opening rolls", "kind.opening_roll.one": "the opening roll",
      "kind.summon": "{n} calls for the director", "kind.summon.one": "a call for the director",
      "kind.cmd": "{n} other commands", "kind.cmd.one": "another command",
      "awake.on": "the screen is kept awake", "awake.video": "the screen is kept awake (video)",
      "awake.off": "this device may let the screen sleep: keep it on in its settings",
      "menu.open": "Actions of this player", "edge.cube": "cube {v}", "edge.cube_mine": "cube {v} · yours",
      "edge.cube_theirs": "cube {v} · {name}'s", "points": "{n} points", "points.one": "{n} point",
      "stop.done": "Both clocks stopped. Why?", "stop.chosen": "chosen after the stop",
      "msg.director": "waiting for the director", "msg.break": "break {t} of {limit}", "msg.break_nolimit": "break {t}",
      "msg.break_over": "break over its limit of {limit} by {t}",
      "msg.aba_penalty": "time expired: {n} penalty points to {name}, clock reset to {reset}",
      "msg.aba_penalty.one": "time expired: {n} penalty point to {name}, clock reset to {reset}",
      "msg.aba_reset": "time expired: clock reset to {reset}",
      "msg.aba_grace": "time expired: no penalty this time (every result ends the match), clock reset to {reset}",
      "msg.offer_answer": "{name} must answer", "msg.double_answer": "{name} must take or pass",
      "msg.winner_gin": "★ WINNER (gin ruled by the director)",
      "msg.last_game": "last game: {name} +{pts}", "msg.score_now": "score {a} – {b}",
      "msg.delay": "delay", "ann.phase": "{phase}", "set.lang_it": "Italiano", "set.lang_en": "English",
      "dir.side": "Side", "form.score_b": "Score of B",
      "log.keeper": "the table's time is kept by device {d}",
      "log.handled": "alert handled: {k}"
    },
    it: {
      "app.table": "Orologio del tavolo", "app.director": "Direttore",
      "lang.name": "Italiano", "lang.switch": "EN",
      "conn.connecting": "connessione…", "conn.online": "in linea",
      "conn.offline": "non in linea — riconnessione", "conn.queued": "{n} pressioni in attesa di invio",
      "conn.unauthorized": "questo link non è valido", "conn.closed": "tavolo chiuso",
      "half.turn": "▶ TOCCA A TE", "half.idle": "in attesa", "half.flag": "⚑ BANDIERINA — TEMPO SCADUTO",
      "half.low": "⚠ POCO TEMPO", "half.stopped": "❚❚ fermo", "half.winner": "★ VINCITORE",
      "half.doubled": "hai ricevuto un raddoppio", "half.offer_to_you": "rispondi all'offerta",
      "allow.delay": "ritardo {t}", "allow.credit": "credito +{t} / {d}",
      "allow.next": "prossima mossa: {t}", "allow.none": "nessun abbuono", "allow.forfeit": "ritardo perso",
      "allow.credit_next": "credito fino a {t}",
      "bar.score": "Punteggio", "bar.to": "a {n}", "bar.cube": "Cubo", "bar.game": "Partita {n}",
      "bar.crawford": "CRAWFORD", "bar.frozen": "cubo congelato", "bar.centered": "centro",
      "bar.stop": "❚❚ Ferma", "bar.resume": "▶ Riprendi", "bar.director_lbl": "Direttore", "set.language": "Lingua",
      "phase.setup": "prima della prima partita", "phase.playing": "in gioco",
      "phase.stopped": "orologi fermi", "phase.offer": "offerta sul tavolo",
      "phase.dispute": "contestazione — chiamato il direttore", "phase.between_games": "tra le partite",
      "phase.break": "pausa", "phase.match_over": "incontro finito",
      "reason.concession": "abbandono", "reason.break": "pausa", "reason.fallen_dice": "dadi caduti",
      "reason.dispute": "contestazione", "reason.director": "chiamato il direttore",
      "reason.dice_not_left": "dadi non lasciati sul tavoliere", "reason.other": "altro",
      "reason.restart": "riavvio del server", "reason.time_expired": "tempo scaduto",
      "act.double": "Raddoppia", "act.take": "Accetto", "act.pass": "Rifiuto",
      "act.accept": "Accetta", "act.reject": "Rifiuta", "act.close": "✕ Chiudi", "act.cancel": "✕ Annulla",
      "act.confirm": "✓ Conferma", "act.start": "Avvia", "act.resume": "▶ Riprendi",
      "act.concede": "Abbandona", "act.claim": "Reclama", "act.game_over": "Ho finito di portare fuori",
      "act.break": "Prendi una pausa", "act.summon": "☎ Chiama il direttore", "act.stop": "❚❚ Ferma gli orologi",
      "result.single": "semplice", "result.gammon": "gammon", "result.backgammon": "backgammon",
      "ask.double": "{name}: raddoppi a {v}?", "ask.take": "{name}: accetti il cubo a {v}?",
      "ask.pass": "{name}: rifiuti (perdi {pts})?",
      "ask.concede": "{name}: abbandoni ({r})?", "ask.claim": "{name}: reclami una vittoria ({r})?",
      "ask.accept": "{name}: accetti l'offerta ({r})?", "ask.reject": "{name}: rifiuti (decide il direttore)?",
      "ask.game_over": "{name} ha vinto: {r}?", "ask.break": "{name}: inizi una pausa?",
      "ask.summon": "Fermare gli orologi e chiamare il direttore?",
      "act.premature": "⚠ Prematura: {name}",
      "ask.premature": "{name}: fermare gli orologi e chiamare il direttore per un'azione prematura di {other}?",
      "stop.premature": "azione prematura di {name} (chiama il direttore)",
      "summon.sent": "{name} ha chiamato il direttore", "summon.premature": "{a} reclama un'azione prematura di {b}: il direttore è chiamato",
      "offer.concede": "{name} abbandona: {r}", "offer.claim": "{name} reclama: {r}",
      "double.offer": "{name} raddoppia a {v}", "menu.side": "Azioni di {name}",
      "menu.stop": "Fermare entrambi gli orologi: perché?", "menu.settings": "Impostazioni",
      "menu.result": "Risultato", "menu.concede_title": "Abbandona", "menu.claim_title": "Reclama",
      "menu.game_over_title": "Ho vinto",
      "roll.title": "Tiro d'apertura", "roll.die": "dado di {name}", "roll.start": "Avvia l'orologio",
      "roll.equal": "dadi uguali: ritirare", "roll.pick": "scegli entrambi i dadi",
      "late.count": "{names} in ritardo: {points} punti di penalità all'avversario, punteggio {a}–{b}",
      "late.next": "prossimo punto alle {t}", "late.out": "squalifica alle {t}",
      "late.over": "{names} squalificato (ritardo)", "late.arrived": "{names} arrivato: il conteggio è fermo",
      "sheet.open": "Segnapunti", "sheet.of": "Segnapunti di {name}:", "sheet.won": "ha vinto {name}",
      "sheet.final": "I segnapunti concordano: il risultato è nel tabellone.",
      "sheet.mismatch": "I segnapunti sono diversi: il direttore è avvisato.", "sheet.kept": "Segnapunti registrato: si attende quello dell'avversario.",
      "sheet.games": "Punteggio di {name}, partita per partita", "sheet.games_hint": "punteggio dopo ogni partita: 1-0 1-2 3-2",
      "sheet.pin": "PIN del segnapunti di {name}", "sheet.pin_hint": "il tuo PIN del segnapunti",
      "sheet.bad_games": "Scrivi il punteggio dopo ogni partita come A-B, per esempio 1-0 1-2 3-2.",
      "sheet.trailing": "I segnapunti sono diversi: vale quello del giocatore in svantaggio, e il direttore è avvisato.",
      "sheet.unconfirmed": "Segnapunti registrato: senza i PIN di entrambi i giocatori il risultato lo decide il direttore.",
      "set.layout": "Disposizione", "set.layout.auto": "automatica", "set.layout.stack": "uno di fronte all'altro",
      "set.layout.side": "affiancati", "set.swap": "Scambia le metà", "set.sound": "Suono",
      "set.vibrate": "Vibrazione", "set.thresholds": "Avvisi di poco tempo (secondi)",
      "set.fullscreen": "Schermo intero", "set.keys": "Tasti: A = Maiusc sinistro o a, B = Maiusc destro o l, Esc chiude",
      "set.on": "sì", "set.off": "no", "set.save": "Salva",
      "err.illegal": "Rifiutato: {m}",
      "match.winner": "{name} vince l'incontro",
      "break.running": "pausa: {t}", "break.over": "pausa oltre il limite di {t}",
      "late": "avvio ritardato: nessuna partita ancora",
      "dir.title": "Pannello del direttore", "dir.alerts": "Avvisi", "dir.no_alerts": "nessun avviso",
      "dir.tables": "Tavoli", "dir.new_tournament": "+ Torneo", "dir.new_table": "+ Tavolo",
      "dir.print": "Stampa i codici QR", "dir.open": "Apri", "dir.ack": "Gestito",
      "dir.no_tables": "nessun tavolo: crea un torneo, poi un tavolo",
      "alert.director": "chiamato il direttore", "alert.flag": "bandierina: tempo scaduto",
      "alert.dispute": "contestazione", "alert.dispute_expiry": "decisione sulla scadenza (gin o persa)",
      "alert.break_over": "pausa oltre il limite", "alert.restart": "recuperato dopo un riavvio", "alert.quarantined": "registro non riproducibile: tavolo fermo",
      "alert.premature": "azione prematura segnalata", "alert.closed": "chiuso",
      "alert.premature_by": "{a} reclama un'azione prematura di {b}",
      "dir.confirm_premature": "Conferma: azione prematura di {name}",
      "det.clocks": "Orologi", "det.log": "Registro degli eventi", "det.actions": "Azioni del direttore",
      "det.link": "Link del tavolo", "det.qr": "Codice QR", "det.close_table": "Chiudi il tavolo",
      "det.ruling": "Decisione", "det.ruling.accept": "l'offerta vale", "det.ruling.invalid": "non valida: si gioca",
      "det.ruling.gin": "gin: {r}", "det.ruling.lost": "perso per tempo",
      "det.adjust": "Correggi il tempo", "det.amount": "quantità (m:ss)", "det.add": "+ aggiungi",
      "det.remove": "− togli", "det.move": "Sposta il tempo", "det.move_from": "da {a} a {b}",
      "det.penalty": "Punti di penalità", "det.points": "punti", "det.premature": "Conferma azione prematura",
      "det.late_start": "Avvia l'orologio di un ritardatario", "det.start": "Introduci l'orologio a partita in corso (chi è di turno)",
      "det.cube_value": "Valore del cubo sul tavoliere", "det.cube_owner": "Proprietario del cubo", "det.cube_centered": "al centro",
      "det.resume": "Riprendi", "det.stop": "Ferma (direttore)", "det.confirm": "Confermi: {what}?",
      "det.sent": "inviato", "det.refused": "rifiutato: {m}",
      "det.sugg.position": "Posizione (ID gnubg o XGID)", "det.sugg.ask": "Suggerisci la decisione",
      "det.sugg.on_roll": "Di turno nella posizione: {side} · {name}",
      "det.sugg.busy": "ricerca in corso…", "det.sugg.ruling": "Decisione suggerita", "det.sugg.apply": "Applica: {what}",
      "det.sugg.unknown": "Non determinabile: la ricerca non ha deciso; decidi a vista",
      "det.sugg.error": "Nessun suggerimento: {m}", "det.sugg.empty": "scrivi prima la posizione",
      "log.at": "tempo", "log.event": "evento", "log.source": "da", "log.lag": "credito di ritardo",
      "form.tournament": "Nuovo torneo", "form.name": "Nome", "form.table": "Nuovo tavolo",
      "form.tournament_sel": "Torneo", "form.players": "Giocatori (A, B)",
      "form.preset": "Regole", "form.length": "Lunghezza dell'incontro", "form.score": "Punteggio (A, B)",
      "form.teams": "Squadre", "form.crawford": "La prima partita è la Crawford",
      "form.overrides": "Modifiche all'orologio (facoltative)", "form.mode": "modalità",
      "form.per_point": "per punto (m:ss)", "form.less_per_point": "meno per punto segnato (m:ss)",
      "form.delay": "ritardo / incremento (s)", "form.reserve": "riserva fissa (m:ss)",
      "form.create": "Crea", "form.created": "creato", "form.warn": "avvisi di poco tempo (s)",
      "form.edit_table": "Modifica tavolo (prima del gioco)", "form.save": "Salva", "det.edit_table": "Modifica tavolo",
      "dir.unauthorized": "Questo browser non può aprire il pannello del direttore: apri il link del direttore stampato dal server (una nuova chiave del direttore chiude ogni sessione precedente).",
      "ref.not_in_phase": "{event}: non è consentito {when}",
      "ref.match_over": "{event}: non è consentito, l'incontro è finito",
      "ref.no_game": "{event}: non è consentito, nessuna partita in corso",
      "ref.opening_roll_in_game": "tiro d'apertura non consentito durante una partita",
      "ref.opening_dice_equal": "i dadi d'apertura sono uguali ({a}-{b}): ritirare",
      "ref.start_at_game_start": "{rules}: l'orologio si introduce solo all'inizio di una partita (1.1)",
      "ref.clock_in_use": "{event}: non è consentito, l'orologio è già in uso",
      "ref.start_cube_centered": "l'orologio non può partire con il cubo al centro a {value}: un cubo raddoppiato ha un proprietario",
      "ref.start_cube_owned_at_one": "l'orologio non può partire con il cubo a 1 di {side}: un cubo mai raddoppiato sta al centro",
      "ref.start_cube_crawford": "l'orologio non può partire con il cubo a {value}: è la partita Crawford, il cubo resta al centro a 1",
      "ref.doubled_must_answer": "{side} ha ricevuto un raddoppio: {side} deve accettare o rifiutare",
      "ref.double_pending": "{side} non può raddoppiare: un raddoppio attende risposta",
      "ref.double_not_turn": "{side} non può raddoppiare: non è il turno di {side}",
      "ref.crawford_no_double": "{side} non può raddoppiare: questa è la partita Crawford",
      "ref.cube_frozen": "{side} non può raddoppiare: il cubo è bloccato (aba-2003 5.2)",
      "ref.cube_owned_by_opponent": "{side} non può raddoppiare: il cubo è dell'avversario",
      "ref.premature_no_cube": "{side} non può raddoppiare: chi tira prematuramente non può usare il cubo in questo turno (regolamento italiano)",
      "ref.premature_delay_running": "{side} non può ancora raddoppiare: dopo un'azione prematura deve prima trascorrere il ritardo (biba-2014 4.6)",
      "ref.no_double_to_answer": "{side} non può {event}: nessun raddoppio in attesa",
      "ref.own_double": "{side} non può {event} il proprio raddoppio",
      "ref.no_offer": "{event}: non è consentito, non c'è nessuna offerta a cui rispondere",
      "ref.own_offer": "{side} non può {event} la propria offerta",
      "ref.max_concession": "{side} non può rifiutare la concessione di un backgammon: nessun giocatore può rifiutare la concessione del massimo",
      "ref.no_dispute": "decisione non consentita: non c'è nessuna contestazione",
      "ref.ruling_for_offer": "un'offerta rifiutata si decide con 'accept' o 'invalid', non '{decision}'",
      "ref.ruling_for_expiry": "una scadenza del tempo BIBA si decide con 'gin' o 'lost', non '{decision}'",
      "ref.director_must_rule": "{event}: non è consentito, il direttore deve decidere: gin o perso",
      "ref.dispute_open": "{event}: non è consentito, il direttore deve decidere la contestazione",
      "ref.offer_open": "{event}: non è consentito, l'offerta attende risposta",
      "ref.game_over_double_pending": "fine partita non consentita: un raddoppio attende accettazione o rifiuto",
      "ref.break_between_games": "pausa non consentita durante una partita: le pause si fanno tra una partita e l'altra",
      "ref.break_limit": "{side} non può fare un'altra pausa: {limit} consentite in un incontro a {length} punti",
      "ref.not_stopped": "riprendi non consentito: gli orologi non sono fermi",
      "ref.not_running": "ferma non consentito: nessun orologio è in corsa",
      "ref.invalid": "comando non valido: {message}",
      "ref.time_backwards": "il tempo non può tornare indietro: {at_ms} ms è prima di {now_ms} ms",
      "evn.opening_roll": "tiro d'apertura",
      "evn.start": "avvio",
      "evn.late_start": "avvio del ritardatario",
      "evn.hit": "pressione",
      "evn.double": "raddoppio",
      "evn.take": "accettare",
      "evn.pass": "rifiutare",
      "evn.stop": "ferma",
      "evn.resume": "riprendi",
      "evn.concede": "concessione",
      "evn.claim": "richiesta",
      "evn.accept": "accettare",
      "evn.reject": "rifiutare",
      "evn.ruling": "decisione",
      "evn.game_over": "fine partita",
      "evn.break": "pausa",
      "evn.premature": "azione prematura",
      "evn.adjust": "correzione",
      "evn.penalty": "penalità",
      "when.setup": "prima della prima partita",
      "when.playing": "mentre un orologio è in corsa",
      "when.stopped": "a orologi fermi",
      "when.offer": "mentre un'offerta attende risposta",
      "when.dispute": "mentre è chiamato il direttore",
      "when.between_games": "tra una partita e l'altra",
      "when.break": "durante una pausa",
      "when.match_over": "a incontro finito",
      "ref.unknown": "rifiutato: {m}", "half.overtime": "TEMPO SUPPLEMENTARE", "half.no_cube": "niente cubo in questo turno",
      "form.overtime": "tempo supplementare (m:ss, opzione USBGF)", "alert.overtime": "tempo supplementare concesso a {side}",
      "conn.queued.one": "{n} pressione in attesa di invio", "conn.synced": "sincronizzato",
      "conn.waiting": "in attesa di invio: {list}", "conn.synced_list": "sincronizzato, applicati al loro istante: {list}",
      "conn.retimed": "{what}: istante spostato di {by}", "conn.refused": "{what}: rifiutato ({why})",
      "conn.ignored": "{what}: non più necessario", "conn.restarted": "il server è stato riavviato",
      "conn.dropped": "nuovo incontro: non inviati {list} del precedente",
      "conn.restored": "ripristinato su questo dispositivo",
      "kind.hit": "{n} pressioni", "kind.hit.one": "{n} pressione", "kind.double": "{n} raddoppi", "kind.double.one": "un raddoppio",
      "kind.take": "{n} cubi accettati", "kind.take.one": "un cubo accettato", "kind.pass": "{n} cubi rifiutati", "kind.pass.one": "un cubo rifiutato",
      "kind.stop": "{n} arresti", "kind.stop.one": "un arresto", "kind.resume": "{n} ripartenze", "kind.resume.one": "una ripartenza",
      "kind.opening_roll": "{n} tiri d'apertura", "kind.opening_roll.one": "il tiro d'apertura",
      "kind.summon": "{n} chiamate al direttore", "kind.summon.one": "una chiamata al direttore",
      "kind.cmd": "{n} altri comandi", "kind.cmd.one": "un altro comando",
      "awake.on": "lo schermo resta acceso", "awake.video": "lo schermo resta acceso (video)",
      "awake.off": "questo dispositivo può spegnere lo schermo: tienilo acceso dalle sue impostazioni",
      "menu.open": "Azioni di questo giocatore", "edge.cube": "cubo {v}", "edge.cube_mine": "cubo {v} · tuo",
      "edge.cube_theirs": "cubo {v} · di {name}", "points": "{n} punti", "points.one": "{n} punto",
      "stop.done": "Orologi fermati. Perché?", "stop.chosen": "scelto dopo l'arresto",
      "msg.director": "in attesa del direttore", "msg.break": "pausa {t} su {limit}", "msg.break_nolimit": "pausa {t}",
      "msg.break_over": "pausa oltre il limite di {limit} da {t}",
      "msg.aba_penalty": "tempo scaduto: {n} punti di penalità a {name}, orologio riportato a {reset}",
      "msg.aba_penalty.one": "tempo scaduto: {n} punto di penalità a {name}, orologio riportato a {reset}",
      "msg.aba_reset": "tempo scaduto: orologio riportato a {reset}",
      "msg.aba_grace": "tempo scaduto: nessuna penalità questa volta (ogni risultato chiude l'incontro), orologio riportato a {reset}",
      "msg.offer_answer": "deve rispondere {name}", "msg.double_answer": "{name} deve accettare o rifiutare",
      "msg.winner_gin": "★ VINCITORE (gin deciso dal direttore)",
      "msg.last_game": "ultima partita: {name} +{pts}", "msg.score_now": "punteggio {a} – {b}",
      "msg.delay": "ritardo", "ann.phase": "{phase}", "set.lang_it": "Italiano", "set.lang_en": "English",
      "log.seq": "#", "dir.side": "Lato", "form.score_b": "Punteggio di B",
      "log.keeper": "il tempo del tavolo è tenuto dal dispositivo {d}",
      "log.handled": "avviso gestito: {k}"
    }
};

/** The language asked for: ?lang=, else the one chosen before, else the browser's. */
function pickLang() {
  /** @type {string|null} */
  let lang = null;
  try { lang = new URLSearchParams(location.search).get("lang"); } catch (e) { /* no location */ }
  if (!lang) { try { lang = localStorage.getItem("bgclock.lang"); } catch (e) { /* private mode */ } }
  if (!lang && typeof navigator !== "undefined" && navigator.language) lang = navigator.language.slice(0, 2);
  return lang && STRINGS[lang] ? lang : "en";
}

/**
 * @typedef {{refusal?: string, params?: Params, message?: string, [field: string]: any}} Refusal
 *   a refusal from the server (its stable code, its fields, its own words)
 */

/** The page's words: one object per page, shared by every module. */
export const I18N = {
  STRINGS: STRINGS,
  lang: pickLang(),
  /** The text of `key` in the page's language, `params` filled in.
   * @param {string} key @param {Params} [params] @returns {string} */
  t(key, params) {
    /** @type {string|undefined} */
    let s;
    if (params && typeof params.n === "number" && I18N.plural(params.n) === "one") {
      s = STRINGS[I18N.lang][key + ".one"];
      if (s === undefined && STRINGS[I18N.lang][key] === undefined) s = STRINGS.en[key + ".one"];
    }
    if (s === undefined) s = STRINGS[I18N.lang][key];
    if (s === undefined) s = STRINGS.en[key];
    if (s === undefined) return key;
    if (params) s = s.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? String(params[k]) : m));
    return s;
  },
  /** A refusal from the server in the page's language: by its stable code
   * (msg.refusal, msg.params), the server's words only for an unknown code.
   * @param {Refusal|null|undefined} msg @returns {string} */
  refusal(msg) {
    const code = msg && msg.refusal;
    if (!msg || !code || STRINGS.en["ref." + code] === undefined) return I18N.t("ref.unknown", { m: msg && msg.message });
    /** @type {Params} */
    const params = Object.assign({}, msg.params || {});
    if (typeof params.event === "string") {
      const ev = "evn." + params.event.replace(/ /g, "_");
      if (STRINGS.en[ev] !== undefined) params.event = I18N.t(ev);
    }
    if (typeof params.phase === "string" && STRINGS.en["when." + params.phase] !== undefined) {
      params.when = I18N.t("when." + params.phase);
    }
    return I18N.t("ref." + code, params);
  },
  /** The plural category of n in the page's language ("one", "other").
   * @param {number} n @returns {string} */
  plural(n) {
    try { return new Intl.PluralRules(I18N.lang).select(n); } catch (e) { return n === 1 ? "one" : "other"; }
  },
  /** Speak `lang` from now on (kept for the next page), if it is known.
   * @param {string} lang */
  setLang(lang) {
    if (!STRINGS[lang]) return;
    I18N.lang = lang;
    try { localStorage.setItem("bgclock.lang", lang); } catch (e) { /* private mode */ }
    if (typeof document !== "undefined") document.documentElement.lang = lang;
  },
  /** Fill every [data-i18n], [data-i18n-title], [data-i18n-aria] element of a subtree.
   * @param {ParentNode} rootEl */
  apply(rootEl) {
    rootEl.querySelectorAll("[data-i18n]").forEach((el) => {
      el.textContent = I18N.t(/** @type {HTMLElement} */ (el).dataset.i18n || "");
    });
    rootEl.querySelectorAll("[data-i18n-title]").forEach((el) => {
      /** @type {HTMLElement} */ (el).title = I18N.t(/** @type {HTMLElement} */ (el).dataset.i18nTitle || "");
    });
    rootEl.querySelectorAll("[data-i18n-aria]").forEach((el) => {
      el.setAttribute("aria-label", I18N.t(/** @type {HTMLElement} */ (el).dataset.i18nAria || ""));
    });
  }
};

/** @typedef {typeof I18N} I18n */

/** The shorthand every view uses. @param {string} key @param {Params} [params] @returns {string} */
export function t(key, params) { return I18N.t(key, params); }

/** The page's words with a screen's own `strings` (language -> key -> text)
 * merged in, one way: a screen adds keys, never reads another's module.
 * @param {Strings} strings @returns {I18n} */
export function withStrings(strings) {
  for (const lang of Object.keys(strings)) {
    STRINGS[lang] = Object.assign(STRINGS[lang] || {}, strings[lang]);
  }
  return I18N;
}
