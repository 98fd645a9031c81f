/* bgclock: every string shown by the pages, in one dictionary (English, Italian).
 * t("key", {name: value}) fills {name} placeholders; a missing Italian string
 * falls back to English, a missing key shows the key itself (a test catches it). */
(function (root) {
  "use strict";
  const STRINGS = {
    en: {
      "app.table": "Table clock", "app.director": "Director",
      "lang.name": "English", "lang.switch": "IT",
      "conn.connecting": "connecting…", "conn.online": "online",
      "conn.offline": "offline — reconnecting", "conn.queued": "{n} press(es) waiting to be sent",
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
      "reason.dice_not_left": "premature action (dice not left)", "reason.other": "other",
      "reason.restart": "server restarted", "reason.time_expired": "time expired",
      "act.double": "Double", "act.take": "Take", "act.pass": "Pass", "act.accept": "Accept",
      "act.reject": "Reject", "act.more": "⋯", "act.close": "✕ Close", "act.cancel": "✕ Cancel",
      "act.confirm": "✓ Confirm", "act.start": "Start", "act.resume": "▶ Resume",
      "act.concede": "Concede", "act.claim": "Claim", "act.game_over": "I bore off (game over)",
      "act.break": "Take a break", "act.summon": "☎ Call the director", "act.stop": "❚❚ Stop clocks",
      "result.single": "single", "result.gammon": "gammon", "result.backgammon": "backgammon",
      "ask.double": "{name}: double to {v}?", "ask.take": "{name}: take the cube at {v}?",
      "ask.pass": "{name}: pass (lose {v} point(s))?",
      "ask.concede": "{name}: concede a {r}?", "ask.claim": "{name}: claim a {r}?",
      "ask.accept": "{name}: accept the {kind} of a {r}?", "ask.reject": "{name}: reject it (the director decides)?",
      "ask.game_over": "{name} won a {r}?", "ask.break": "{name}: start a break?",
      "ask.summon": "Stop the clocks and call the director?",
      "offer.concede": "{name} concedes a {r}", "offer.claim": "{name} claims a {r}",
      "double.offer": "{name} doubles to {v}", "menu.side": "{name}'s actions",
      "menu.stop": "Stop both clocks: why?", "menu.settings": "Settings",
      "menu.result": "Result", "menu.concede_title": "Concede", "menu.claim_title": "Claim",
      "menu.game_over_title": "I won",
      "roll.title": "Opening roll", "roll.die": "{name}'s die", "roll.start": "Start the clock",
      "roll.equal": "equal dice: roll again", "roll.pick": "pick both dice",
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
      "alert.break_over": "break running over", "alert.restart": "recovered after a restart",
      "alert.premature": "premature action claimed", "alert.closed": "closed",
      "det.clocks": "Clocks", "det.log": "Event log", "det.actions": "Director's actions",
      "det.link": "Table link", "det.qr": "QR code", "det.close_table": "Close table",
      "det.ruling": "Ruling", "det.ruling.accept": "offer stands", "det.ruling.invalid": "invalid: play on",
      "det.ruling.gin": "gin: {r}", "det.ruling.lost": "lost on time",
      "det.adjust": "Adjust time", "det.amount": "amount (m:ss)", "det.add": "+ add", "det.remove": "− remove",
      "det.move": "Move time", "det.move_from": "from {a} to {b}",
      "det.penalty": "Penalty points", "det.points": "points", "det.premature": "Confirm premature action",
      "det.late_start": "Start a late player's clock", "det.start": "Introduce the clock mid-game (side on turn)",
      "det.resume": "Resume", "det.stop": "Stop (director)", "det.confirm": "Confirm: {what}?",
      "det.sent": "sent", "det.refused": "refused: {m}",
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
      "dir.unauthorized": "This key cannot open the director's dashboard."
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
      "reason.dice_not_left": "azione prematura (dadi non lasciati)", "reason.other": "altro",
      "reason.restart": "riavvio del server", "reason.time_expired": "tempo scaduto",
      "act.double": "Raddoppia", "act.take": "Accetto", "act.pass": "Rifiuto",
      "act.accept": "Accetta", "act.reject": "Rifiuta", "act.close": "✕ Chiudi", "act.cancel": "✕ Annulla",
      "act.confirm": "✓ Conferma", "act.start": "Avvia", "act.resume": "▶ Riprendi",
      "act.concede": "Abbandona", "act.claim": "Reclama", "act.game_over": "Ho finito di portare fuori",
      "act.break": "Prendi una pausa", "act.summon": "☎ Chiama il direttore", "act.stop": "❚❚ Ferma gli orologi",
      "result.single": "semplice", "result.gammon": "gammon", "result.backgammon": "backgammon",
      "ask.double": "{name}: raddoppi a {v}?", "ask.take": "{name}: accetti il cubo a {v}?",
      "ask.pass": "{name}: rifiuti (perdi {v} punti)?",
      "ask.concede": "{name}: abbandoni ({r})?", "ask.claim": "{name}: reclami una vittoria ({r})?",
      "ask.accept": "{name}: accetti l'offerta ({r})?", "ask.reject": "{name}: rifiuti (decide il direttore)?",
      "ask.game_over": "{name} ha vinto: {r}?", "ask.break": "{name}: inizi una pausa?",
      "ask.summon": "Fermare gli orologi e chiamare il direttore?",
      "offer.concede": "{name} abbandona: {r}", "offer.claim": "{name} reclama: {r}",
      "double.offer": "{name} raddoppia a {v}", "menu.side": "Azioni di {name}",
      "menu.stop": "Fermare entrambi gli orologi: perché?", "menu.settings": "Impostazioni",
      "menu.result": "Risultato", "menu.concede_title": "Abbandona", "menu.claim_title": "Reclama",
      "menu.game_over_title": "Ho vinto",
      "roll.title": "Tiro d'apertura", "roll.die": "dado di {name}", "roll.start": "Avvia l'orologio",
      "roll.equal": "dadi uguali: ritirare", "roll.pick": "scegli entrambi i dadi",
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
      "alert.break_over": "pausa oltre il limite", "alert.restart": "recuperato dopo un riavvio",
      "alert.premature": "azione prematura segnalata", "alert.closed": "chiuso",
      "det.clocks": "Orologi", "det.log": "Registro degli eventi", "det.actions": "Azioni del direttore",
      "det.link": "Link del tavolo", "det.qr": "Codice QR", "det.close_table": "Chiudi il tavolo",
      "det.ruling": "Decisione", "det.ruling.accept": "l'offerta vale", "det.ruling.invalid": "non valida: si gioca",
      "det.ruling.gin": "gin: {r}", "det.ruling.lost": "perso per tempo",
      "det.adjust": "Correggi il tempo", "det.amount": "quantità (m:ss)", "det.add": "+ aggiungi",
      "det.remove": "− togli", "det.move": "Sposta il tempo", "det.move_from": "da {a} a {b}",
      "det.penalty": "Punti di penalità", "det.points": "punti", "det.premature": "Conferma azione prematura",
      "det.late_start": "Avvia l'orologio di un ritardatario", "det.start": "Introduci l'orologio a partita in corso (chi è di turno)",
      "det.resume": "Riprendi", "det.stop": "Ferma (direttore)", "det.confirm": "Confermi: {what}?",
      "det.sent": "inviato", "det.refused": "rifiutato: {m}",
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
      "dir.unauthorized": "Questa chiave non apre il pannello del direttore."
    }
  };

  function pickLang() {
    let lang = null;
    try { lang = new URLSearchParams(location.search).get("lang"); } catch (e) { /* no location */ }
    if (!lang) { try { lang = localStorage.getItem("bgclock.lang"); } catch (e) { /* private mode */ } }
    if (!lang && typeof navigator !== "undefined" && navigator.language) lang = navigator.language.slice(0, 2);
    return STRINGS[lang] ? lang : "en";
  }

  const I18N = {
    STRINGS: STRINGS,
    lang: pickLang(),
    t: function (key, params) {
      let s = STRINGS[I18N.lang][key];
      if (s === undefined) s = STRINGS.en[key];
      if (s === undefined) return key;
      if (params) s = s.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? String(params[k]) : m));
      return s;
    },
    setLang: function (lang) {
      if (!STRINGS[lang]) return;
      I18N.lang = lang;
      try { localStorage.setItem("bgclock.lang", lang); } catch (e) { /* private mode */ }
      if (typeof document !== "undefined") document.documentElement.lang = lang;
    },
    /* Fill every [data-i18n] element of a subtree. */
    apply: function (rootEl) {
      rootEl.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = I18N.t(el.dataset.i18n); });
      rootEl.querySelectorAll("[data-i18n-title]").forEach((el) => { el.title = I18N.t(el.dataset.i18nTitle); });
    }
  };
  root.I18N = I18N;
})(typeof window !== "undefined" ? window : globalThis);
