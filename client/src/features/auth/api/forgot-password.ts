import { apiRequest } from "@/lib/api-client";

export async function requestPasswordReset(email: string): Promise<{ ok: true; message?: string }> {
  const response = await apiRequest("POST", "/api/forgot-password", { email });
  return response.json();
}
