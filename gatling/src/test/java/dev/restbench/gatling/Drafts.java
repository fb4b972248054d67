package dev.restbench.gatling;

import io.gatling.javaapi.core.Session;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Request bodies for the write operations. Skus and codes are "W" + the run tag + the virtual user's id + a
 * per-user counter: unique within the run, and distinct from the dataset (which starts with SKU-/CAT-) and from
 * other runs (other tags), so a create never meets a 409.
 */
public final class Drafts {

    /** Session attribute counting the rows a virtual user has created. */
    private static final String WRITE_SEQ = "writeSeq";

    /** Length of the description in heavy bodies: the whole JSON body is then about 5 KB. */
    static final int HEAVY_DESCRIPTION_CHARS = 4900;

    /** Pre-built descriptions so the load generator does not spend CPU building 5 KB strings per request. */
    private static final String[] HEAVY_DESCRIPTIONS = heavyDescriptions(16);

    private final String runTag;
    private final int datasetCategories;

    public Drafts(BenchConfig config) {
        this.runTag = config.runTag();
        this.datasetCategories = config.datasetCategories();
    }

    /** Advances the per-user counter; call once before the drafts that should share a key. */
    public static Session nextKey(Session session) {
        return session.set(WRITE_SEQ, session.contains(WRITE_SEQ) ? session.getInt(WRITE_SEQ) + 1 : 0);
    }

    private String key(Session session) {
        return "W" + runTag + "u" + session.userId() + "n" + session.getInt(WRITE_SEQ);
    }

    public Operations.CategoryDraft category(Session session) {
        return new Operations.CategoryDraft(key(session), "Written category " + key(session));
    }

    public Operations.CategoryDraft renamedCategory(Session session) {
        return new Operations.CategoryDraft(key(session), "Renamed category " + key(session));
    }

    /** A small item in the category this user created. */
    public Operations.ItemDraft itemInNewCategory(Session session) {
        return new Operations.ItemDraft(key(session), "Written item " + key(session), "19.99", 5,
                "Written by the MIXED scenario.", session.getLong(Operations.NEW_CATEGORY_ID));
    }

    public Operations.ItemDraft updatedItemInNewCategory(Session session) {
        return new Operations.ItemDraft(key(session), "Updated item " + key(session), "21.50", 4,
                "Updated by the MIXED scenario.", session.getLong(Operations.NEW_CATEGORY_ID));
    }

    /** A ~5 KB item in a dataset category (fed as {@link Operations#CATEGORY_ID}). */
    public Operations.ItemDraft heavyItem(Session session) {
        return new Operations.ItemDraft(key(session), "Heavy item " + key(session), "149.90", 10,
                HEAVY_DESCRIPTIONS[(int) (session.userId() % HEAVY_DESCRIPTIONS.length)],
                session.getInt(Operations.CATEGORY_ID));
    }

    /** The same ~5 KB item with another description, stock and price, moved to the next dataset category. */
    public Operations.ItemDraft updatedHeavyItem(Session session) {
        long category = 1 + session.getInt(Operations.CATEGORY_ID) % datasetCategories;
        return new Operations.ItemDraft(key(session), "Heavy item " + key(session) + " v2", "139.90", 9,
                HEAVY_DESCRIPTIONS[(int) ((session.userId() + 1) % HEAVY_DESCRIPTIONS.length)], category);
    }

    private static String[] heavyDescriptions(int count) {
        String alphabet = "abcdefghijklmnopqrstuvwxyz      .,";
        String[] descriptions = new String[count];
        for (int i = 0; i < count; i++) {
            StringBuilder text = new StringBuilder(HEAVY_DESCRIPTION_CHARS);
            ThreadLocalRandom random = ThreadLocalRandom.current();
            while (text.length() < HEAVY_DESCRIPTION_CHARS) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            descriptions[i] = text.toString();
        }
        return descriptions;
    }
}
