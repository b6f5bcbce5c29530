// The Domination side of benchmarks/domination: Domination's engine (yura.net, GPL) plays
// one game after another headless, its hard AI in every seat but one "human" seat, which
// is asked over stdin/stdout. Compiled by the harness against a Domination build that the
// user names; Domination's own code never enters this repository.
//
// Protocol, one line each way:
//   in:  "new PLAYERS SEAT"    a new game; SEAT (0-based) is the asked seat
//        "do COMMAND"          one Domination command for the asked seat (e.g. "attack 3 7")
//        "quit"
//   out: one JSON object per "new"/"do": the position when the asked seat must decide
//        next, or when the game is over or the seat is out ("over": true).
import java.io.*;
import java.net.URL;
import java.util.*;
import net.yura.domination.engine.*;
import net.yura.domination.engine.ai.AIManager;
import net.yura.domination.engine.core.*;

public class DominationBridge {

    static final Object lock = new Object();
    static int inputs = 0;
    static final List<String> messages = new ArrayList<>();
    static final List<Card> wilds = new ArrayList<>();
    static int me = -1;

    /** Maps and cards from our folder first (the arena's map), then Domination's. */
    static class Files implements RiskIO {
        final File[] dirs;
        Files(File[] dirs) { this.dirs = dirs; }
        InputStream open(String name) throws IOException {
            for (File d : dirs) {
                File f = new File(d, name);
                if (f.isFile()) return new FileInputStream(f);
            }
            throw new FileNotFoundException(name);
        }
        public InputStream openStream(String name) throws IOException { return open(name); }
        public InputStream openMapStream(String name) throws IOException { return open(name); }
        public ResourceBundle getResourceBundle(Class a, String n, Locale l) {
            return ResourceBundle.getBundle(a.getPackage().getName() + "." + n, l);
        }
        public void openURL(URL url) {}
        public void openDocs(String doc) {}
        public void saveGameFile(String name, RiskGame obj) {}
        public InputStream loadGameFile(String file) throws Exception { throw new IOException(file); }
        public OutputStream saveMapFile(String fileName) throws Exception { throw new IOException(fileName); }
        public void renameMapFile(String oldName, String newName) {}
        public boolean deleteMapFile(String mapName) { return false; }
        public void getMap(String filename, Observer observer) { observer.update(null, RiskUtil.ERROR); }
    }

    public static void main(String[] args) throws Exception {
        File[] dirs = new File[args.length];
        for (int i = 0; i < args.length; i++) dirs[i] = new File(args[i]);
        RiskUtil.streamOpener = new Files(dirs);
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
        System.setOut(new PrintStream(new OutputStream() { public void write(int b) {} }));
        RiskGame.setDefaultMapAndCards("arena-classic.map", "arena-classic.cards");
        final Risk risk = new Risk();
        AIManager.setWait(0);
        Risk.setShowDice(false);
        risk.addRiskListener(new RiskAdapter() {
            public void sendMessage(String output, boolean redraw, boolean repaint) {
                synchronized (lock) { if (messages.size() < 50) messages.add(output); }
            }
            public void needInput(int s) {
                synchronized (lock) { inputs++; lock.notifyAll(); }
            }
        });
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String line;
        while ((line = in.readLine()) != null) {
            line = line.trim();
            if (line.equals("quit")) break;
            if (line.startsWith("new ")) {
                String[] p = line.split(" ");
                newGame(risk, Integer.parseInt(p[1]), Integer.parseInt(p[2]));
            } else if (line.startsWith("do ")) {
                send(risk, line.substring(3));
            } else {
                out.println("{\"error\":\"unknown line\"}");
                continue;
            }
            out.println(safeSnapshot(risk));
        }
        risk.kill();
        System.exit(0);
    }

    static void waitInput(int before) throws InterruptedException {
        synchronized (lock) {
            long until = System.currentTimeMillis() + 1800_000L;
            while (inputs == before) {
                long left = until - System.currentTimeMillis();
                if (left <= 0) throw new IllegalStateException("no input asked for 30 minutes");
                lock.wait(left);
            }
        }
    }

    /** One command, then wait until the asked seat must decide again (or the game ends). */
    static void send(Risk risk, String command) throws InterruptedException {
        int before;
        synchronized (lock) { before = inputs; messages.clear(); }
        risk.parser(command);
        waitInput(before);
        settle(risk);
    }

    /** Past what needs no decision of ours: the AI seats play on until we are asked. */
    static void settle(Risk risk) throws InterruptedException {
        while (true) {
            RiskGame g = risk.getGame();
            if (g == null || g.getState() == RiskGame.STATE_GAME_OVER) return;
            Player p = (Player) g.getPlayers().get(me);
            if (g.getSetupDone() && p.getNoTerritoriesOwned() == 0) return;
            if (g.getCurrentPlayer() == p) return;
            // needInput for someone else: only a stale wake-up; wait for the next one
            int before;
            synchronized (lock) { before = inputs; }
            synchronized (lock) { if (inputs == before) lock.wait(50); }
        }
    }

    static void newGame(Risk risk, int players, int seat) throws Exception {
        me = seat;
        risk.parserAndWait("closegame");
        risk.parserAndWait("newgame");
        risk.parserAndWait("choosemap arena-classic.map");
        risk.parserAndWait("choosecards arena-classic.cards");
        String[] colors = {"red", "blue", "green", "yellow", "magenta", "cyan"};
        for (int i = 0; i < players; i++) {
            String type = i == seat ? "human" : "ai hard";
            risk.parserAndWait("newplayer " + type + " " + colors[i] + " P" + i);
        }
        RiskGame g = risk.getGame();
        for (Object o : g.getPlayers()) {
            ((Player) o).setAutoDefend(true);
            ((Player) o).setAutoEndGo(true);
        }
        int before;
        synchronized (lock) { before = inputs; messages.clear(); }
        wilds.clear();
        risk.parser("startgame domination increasing recycle");
        waitInput(before);
        for (Object o : g.getCards()) {
            if (((Card) o).getCountry() == null) wilds.add((Card) o);
        }
        settle(risk);
    }

    /** The position; once the asked seat is out the AI seats may still be playing on
     * Domination's thread, so a snapshot that collides with them is taken again. */
    static String safeSnapshot(Risk risk) throws InterruptedException {
        for (int attempt = 0; ; attempt++) {
            try {
                return snapshot(risk.getGame());
            } catch (RuntimeException e) {
                if (attempt >= 20) throw e;
                Thread.sleep(5);
            }
        }
    }

    static String snapshot(RiskGame g) {
        StringBuilder b = new StringBuilder("{");
        List players = g.getPlayers();
        int state = g.getState();
        Player mine = (Player) players.get(me);
        boolean out = g.getSetupDone() && mine.getNoTerritoriesOwned() == 0;
        boolean over = state == RiskGame.STATE_GAME_OVER || out;
        b.append("\"state\":").append(state);
        b.append(",\"over\":").append(over);
        b.append(",\"setup_done\":").append(g.getSetupDone());
        b.append(",\"current\":").append(players.indexOf(g.getCurrentPlayer()));
        b.append(",\"me\":").append(me);
        int winner = -1;
        if (state == RiskGame.STATE_GAME_OVER) winner = players.indexOf(g.getCurrentPlayer());
        b.append(",\"winner\":").append(winner);
        Country[] cs = g.getCountries();
        StringBuilder owner = new StringBuilder(), armies = new StringBuilder();
        for (int i = 0; i < cs.length; i++) {
            Country c = cs[i];
            if (i > 0) { owner.append(','); armies.append(','); }
            owner.append(c.getOwner() == null ? -1 : players.indexOf(c.getOwner()));
            armies.append(c.getArmies());
        }
        b.append(",\"owner\":[").append(owner).append("],\"armies\":[").append(armies).append(']');
        b.append(",\"players\":[");
        for (int i = 0; i < players.size(); i++) {
            Player p = (Player) players.get(i);
            if (i > 0) b.append(',');
            b.append("{\"territories\":").append(p.getNoTerritoriesOwned())
             .append(",\"extra\":").append(p.getExtraArmies())
             .append(",\"cards\":").append(p.getCards().size())
             .append(",\"turns\":").append(p.getStatistics().size()).append('}');
        }
        b.append("],\"hand\":[");
        List hand = mine.getCards();
        for (int i = 0; i < hand.size(); i++) {
            Card c = (Card) hand.get(i);
            if (i > 0) b.append(',');
            b.append('"').append(c.getCountry() == null ? "*" + wilds.indexOf(c) : String.valueOf(c.getCountry().getColor())).append('"');
        }
        b.append("],\"deck\":").append(g.getCards().size());
        b.append(",\"used\":").append(g.getUsedCards().size());
        b.append(",\"card_state\":").append(cardState(g));
        b.append(",\"trade_cap\":").append(g.getTradeCap());
        b.append(",\"captured\":").append(g.isCapturedCountry());
        Country a = g.getAttacker(), d = g.getDefender();
        b.append(",\"attacker\":").append(a == null ? -1 : a.getColor());
        b.append(",\"defender\":").append(d == null ? -1 : d.getColor());
        b.append(",\"must_move\":").append(g.getMustMove());
        b.append(",\"messages\":[");
        synchronized (lock) {
            for (int i = 0; i < messages.size(); i++) {
                if (i > 0) b.append(',');
                b.append('"').append(messages.get(i).replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", " ").replace("\r", " ").replace("\t", " ")).append('"');
            }
        }
        b.append("]}");
        return b.toString();
    }

    /** The value of the last set traded (Domination's cardState; 0 before the first). */
    static int cardState(RiskGame g) {
        // getNewCardState() is the next set's value; invert it over the increasing table
        int next = g.getNewCardState();
        int v = 0;
        while (true) {
            int n = v < 4 ? v + 4 : v < 12 ? v + 2 : v < 15 ? v + 3 : v + 5;
            if (n == next) return v;
            if (n > next) return -1;
            v = n;
        }
    }
}
