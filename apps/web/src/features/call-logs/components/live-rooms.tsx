import PersonRemoveOutlined from "@mui/icons-material/PersonRemoveOutlined";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ActiveRoom, RoomParticipant } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { useDates } from "../../../lib/dates-in-language.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import { useRemoveParticipant, useWorkspaceRooms } from "../api/call-logs-api.ts";

/** The live monitor: calls running in this workspace right now, with their participants. */
export function LiveRooms() {
  const { t } = useTranslation("call-logs");
  const dates = useDates();
  const notice = useNotice();
  const rooms = useWorkspaceRooms();
  const removeParticipant = useRemoveParticipant();
  const [removing, setRemoving] = useState<{ room: ActiveRoom; participant: RoomParticipant } | null>(null);

  const confirmRemove = async () => {
    if (!removing) return;
    const { room, participant } = removing;
    setRemoving(null);
    const removed = removeParticipant.mutateAsync({ room: room.name, identity: participant.identity });
    await notice.run(removed, t("live.removed", { name: participant.name }), t("live.removeFailed"));
  };

  const list = rooms.data?.rooms ?? [];
  return (
    <Card sx={{ mb: 3 }}>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: "center", mb: 1 }}>
          <Typography variant="h6" component="h2">
            {t("live.title")}
          </Typography>
          <Chip size="small" color={list.length > 0 ? "success" : "default"} label={list.length} />
        </Stack>
        {rooms.isError && <Typography color="error">{errorText(rooms.error, t("live.failed"))}</Typography>}
        {rooms.isSuccess && list.length === 0 && <Typography color="text.secondary">{t("live.none")}</Typography>}
        {list.map((room) => (
          <Card key={room.name} variant="outlined" sx={{ mb: 1 }} data-room={room.name}>
            <CardContent sx={{ pb: 1 }}>
              <Typography variant="subtitle1" component="h3">
                {t("live.roomTitle", { assistant: room.agent_name, room: room.name })}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t("live.since", { time: dates.time(room.started_at) })}
              </Typography>
              <List dense aria-label={t("live.participantsOf", { room: room.name })}>
                {room.participants.map((p) => (
                  <ListItem
                    key={p.identity}
                    secondaryAction={
                      <IconButton
                        edge="end"
                        aria-label={t("live.removeNamed", { name: p.name })}
                        onClick={() => setRemoving({ room, participant: p })}
                      >
                        <PersonRemoveOutlined />
                      </IconButton>
                    }
                  >
                    <ListItemText primary={p.name} secondary={`${t(`live.kinds.${p.kind}`)} · ${p.identity}`} />
                  </ListItem>
                ))}
              </List>
            </CardContent>
          </Card>
        ))}
      </CardContent>
      <ConfirmDialog
        open={removing !== null}
        title={t("live.removeTitle")}
        text={t("live.removeText", { name: removing?.participant.name ?? "" })}
        confirmLabel={t("live.remove")}
        onClose={() => setRemoving(null)}
        onConfirm={() => void confirmRemove()}
      />
    </Card>
  );
}
